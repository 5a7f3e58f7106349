"""Dashboard helpers: pure functions from engine data to rows and figures (no Streamlit here)."""
