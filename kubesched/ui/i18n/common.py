"""Shared UI strings: app title, navigation, stepper, language."""

EN = {
    "app.title": "kubesched — kube-scheduler v1.18.5, step by step",
    "app.language": "Language",
    "app.computing": "Computing…",
}
ZH = {
    "app.title": "kubesched — 逐步理解 kube-scheduler v1.18.5",
    "app.language": "语言",
    "app.computing": "正在计算……",
}
