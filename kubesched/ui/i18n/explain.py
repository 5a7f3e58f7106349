"""The "Why (not) on node X?" sentence: English from kubesched/explain/text.py (``PHRASES``, the
CLI's words), Chinese here; same keys, prefixed ``why.``. Plugin names, reasons and numbers are
filled in unchanged."""

from kubesched.explain.text import PHRASES

EN = {f"why.{key}": text for key, text in PHRASES.items()}

ZH = {
    "why.not_in_cluster": "Pod {pod} 不在集群中。",
    "why.summary": "{text}",
    "why.on": "在 {node} 上：{why}。",
    "why.selected": "已选中 {node}，等待绑定：{why}。",
    "why.bind_failed": "不在 {node} 上：selectHost 选中了它，但绑定失败：{error}",
    "why.why.filters": "它在 {node} 上通过了所有过滤插件",
    "why.why.shortcut": "{node} 是唯一的可行节点，因此跳过了打分",
    "why.why.tie": "它在 {node} 上通过了所有过滤插件，并与 {others} 并列最高分 {score}；selectHost 选择了 {node}",
    "why.why.best": "它在 {node} 上通过了所有过滤插件，且得分最高：{score}",
    "why.score.split": "{total}（除去 {count} 个打分节点共有的 {common}，为 {diff}）",
    "why.not_in_snapshot": "{node} 不在周期 {cycle} 的节点中（调度器的快照里没有它）。",
    "why.not_yet": "{node} 尚未评估：游标处周期 {cycle} 的过滤遍历还没有运行。",
    "why.no_walk": "不在 {node} 上：周期 {cycle} 在过滤任何节点之前就结束了（{result}）。",
    "why.rejected": "不在 {node} 上：{who} 拒绝了它：{reasons}。",
    "why.who.plugin": "Filter 插件 {plugin}",
    "why.who.extender": "extender {plugin}",
    "why.not_visited": "不在 {node} 上：它未被评估；调度器在到达它之前已找到足够的可行节点（numFeasibleNodesToFind）。",
    "why.scoring_pending": "{node} 通过了所有过滤插件；游标处尚未打分。",
    "why.not_placed": "{node} 通过了所有过滤插件，但 Pod 没有被放置（{result}）。",
    "why.tied": "不在 {node} 上：它通过了所有过滤插件，并与 {others} 并列最高分 {score}；selectHost 选择了 {winner}。",
    "why.lower": "不在 {node} 上：它通过了所有过滤插件，但得分 {total}，低于 {winner} 的 {best}。",
    "why.lower.split": "不在 {node} 上：它通过了所有过滤插件，但得分 {total}，低于 {winner} 的 {best}"
                       "（除去 {count} 个打分节点共有的 {common}：{diff} 对 {best_diff}）。",
}
