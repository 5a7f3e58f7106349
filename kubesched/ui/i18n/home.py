"""The Home page and the sidebar cluster picker (``home.*``)."""

EN = {
    "home.title": "kubesched — kube-scheduler v1.18.5, step by step",
    "home.intro": (
        "kubesched re-implements the Kubernetes scheduler v1.18.5 in Python and runs it against a "
        "simulated cluster on a simulated clock, recording every decision. "
        "Pick a cluster, then step through the run event by event, phase by phase or pod by pod: "
        "the queues, every Filter and Score plugin, preemption and binding. "
        "Every view names the upstream function it mirrors and links to its v1.18.5 source."),
    "home.samples": "Sample clusters",
    "home.use": "Use this cluster",
    "home.details": "What it teaches",
    "home.in_use": "In use",
    "home.upload": "Or upload a cluster (multi-document YAML)",
    "home.upload_errors": "This file did not load; the previous cluster is kept:",
    "home.upload_ok": "Loaded {name}.",
    "home.lessons": "Lessons",
    "home.lessons_text": "Guided lessons walk through one scheduler idea at a time.",
    "home.lessons_open": "Open the lessons",
    "home.next": "Next: look at the cluster, then step through the run.",
    "home.open_cluster": "Open the Cluster page",
    "home.picker": "Cluster",
    "home.custom_source": "Running a cluster that is not the picked sample:",
    "home.action_errors": "The API server refused {n} action(s) of this run's Scenario; the run went on without them:",
    "home.action_error": "t={time:g} s · {where} · {action}: {error}",
    "home.counts": "{nodes} nodes · {pods} pods",
}
ZH = {
    "home.title": "kubesched — 逐步理解 kube-scheduler v1.18.5",
    "home.intro": (
        "kubesched 用 Python 重新实现了 Kubernetes 调度器 v1.18.5，在模拟时钟上针对模拟集群运行，"
        "并记录每一个决策。"
        "选择一个集群，然后按事件、按阶段或按 Pod 逐步查看运行过程：调度队列、每个 Filter 和 Score 插件、抢占与绑定。"
        "每个视图都标明它对应的上游函数，并链接到 v1.18.5 源码。"),
    "home.samples": "示例集群",
    "home.use": "使用此集群",
    "home.details": "它讲解什么",
    "home.in_use": "使用中",
    "home.upload": "或上传一个集群（多文档 YAML）",
    "home.upload_errors": "此文件未能加载，保留之前的集群：",
    "home.upload_ok": "已加载 {name}。",
    "home.lessons": "课程",
    "home.lessons_text": "引导式课程，每次讲解调度器的一个概念。",
    "home.lessons_open": "打开课程",
    "home.next": "下一步：查看集群，然后逐步查看运行过程。",
    "home.open_cluster": "打开集群页面",
    "home.picker": "集群",
    "home.custom_source": "当前运行的集群不是所选示例：",
    "home.action_errors": "API 服务器拒绝了本次运行场景（Scenario）中的 {n} 个动作；运行在没有它们的情况下继续：",
    "home.action_error": "t={time:g} 秒 · {where} · {action}：{error}",
    "home.counts": "{nodes} 个节点 · {pods} 个 Pod",
}
