"""Pure figure and row builders for the dashboard pages (no Streamlit import here)."""
