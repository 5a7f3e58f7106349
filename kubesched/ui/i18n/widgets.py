"""Texts that replace Streamlit's built-in widget texts (keys ``widgets.*``; kubesched/ui/widget_text.py)."""

EN = {
    "widgets.upload": "Upload",
    "widgets.upload_limit": "up to {mb} MB per file · {types}",
}
ZH = {
    "widgets.upload": "上传",
    "widgets.upload_limit": "每个文件不超过 {mb} MB · {types}",
}
