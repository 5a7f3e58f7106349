"""Explain: why a pod is where it is, or why it is pending, read from a run's trace.

Upstream: no counterpart; the words are v1.18.5's (see ``pod.py``).

- ``explain_pod(trace, state, pod_key, node=None) -> Explanation``; ``sentence(e)`` and ``render(e)`` word it
- ``cycle_summaries(trace) -> [CycleSummary]``: one line per scheduling cycle
Pure functions over the trace and a ``SimState``: no printing, no argparse (the CLI and the
dashboard's Explain both use them).
"""

from __future__ import annotations

from kubesched.explain.cycles import cycle_summaries
from kubesched.explain.model import (
    BindInfo,
    CycleSummary,
    Explanation,
    NodeScores,
    NodeVerdict,
    PickInfo,
    PluginScore,
    PodStatus,
    PreemptionInfo,
    VictimsOnNode,
)
from kubesched.explain.pod import explain_pod, pod_status
from kubesched.explain.text import render, sentence

__all__ = [
    "BindInfo",
    "CycleSummary",
    "Explanation",
    "NodeScores",
    "NodeVerdict",
    "PickInfo",
    "PluginScore",
    "PodStatus",
    "PreemptionInfo",
    "VictimsOnNode",
    "cycle_summaries",
    "explain_pod",
    "pod_status",
    "render",
    "sentence",
]
