"""Presenter mode, the keyboard-shortcut sheet and what the URL can reproduce (``presenter.*``, ``persist.*``)."""

EN = {
    "presenter.toggle": "Presenter mode",
    "presenter.help": "The stepper as a bar over the page, larger type, the sidebar collapsed (?present=1).",
    "presenter.sheet": "Keyboard shortcuts",
    "presenter.col_keys": "Keys",
    "presenter.col_does": "What it does",
    "presenter.lessons_keys": "On the Lessons page → continues the lesson and ← goes one step back.",
    "stepper.play_unit": "Play by",
    "persist.too_big": "This run is too large for the URL: a link to it reopens it only in this browser. "
                       "Export → Scenario YAML keeps it.",
    "persist.lost": "The link named a run saved in another browser: it cannot be reproduced from the URL, "
                    "so the sample cluster opened instead.",
    "persist.refused": "The scenario in the link could not be loaded, so the sample cluster opened instead.",
}
ZH = {
    "presenter.toggle": "演示模式",
    "presenter.help": "步进控件固定在页面顶部，字体放大，侧边栏收起（?present=1）。",
    "presenter.sheet": "键盘快捷键",
    "presenter.col_keys": "按键",
    "presenter.col_does": "作用",
    "presenter.lessons_keys": "在课程页面，→ 继续课程，← 后退一步。",
    "stepper.play_unit": "播放单位",
    "persist.too_big": "此运行太大，无法放进 URL：它的链接只能在本浏览器中重新打开。可用「导出 → 场景 YAML」保存。",
    "persist.lost": "链接指向保存在另一个浏览器中的运行：无法从 URL 复现，因此打开了示例集群。",
    "persist.refused": "链接中的场景无法加载，因此打开了示例集群。",
}
