"""Pure builders of the dashboard's rows and Plotly figures (no Streamlit).

Every figure sets its colours explicitly (``kubesched.ui.theme``), so none uses a Plotly template:
``"none"`` is made the default here, once, because copying Plotly's default template costs about
half of every figure's build time.
"""

import plotly.io as _pio

_pio.templates.default = "none"
