"""Big clusters: summarized matrix rows, long lists, pages of nodes, "show all" (``large.*``)."""

EN = {
    "large.group": "{count} nodes · {what}",
    "large.more": "{names} … ({count} nodes)",
    "large.matrix_summary": "{shown} rows for {total} nodes: each ✗ row stands for every node that failed at that "
                            "plugin for that reason, the first {sample} feasible nodes are shown one by one.",
    "large.show_all": "Show every node",
    "large.show_all_help": "Draw one row per node (slow on big clusters).",
    "large.score_top": "The {shown} best of {total} scored nodes.",
    "large.page": "Nodes {first}–{last} of {total}",
    "large.group_members": "Nodes in each summarized row",
}
ZH = {
    "large.group": "{count} 个节点 · {what}",
    "large.more": "{names} …（共 {count} 个节点）",
    "large.matrix_summary": "{total} 个节点显示为 {shown} 行：每个 ✗ 行代表因同一原因在同一插件失败的所有节点，"
                            "前 {sample} 个可行节点逐个显示。",
    "large.show_all": "显示所有节点",
    "large.show_all_help": "每个节点一行（大集群上较慢）。",
    "large.score_top": "{total} 个已打分节点中得分最高的 {shown} 个。",
    "large.page": "第 {first}–{last} 个节点，共 {total} 个",
    "large.group_members": "每个汇总行包含的节点",
}
