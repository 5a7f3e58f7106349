"""Fixed colours and glyphs shared by every chart, so a queue or plugin looks the same everywhere.

Okabe–Ito colour-blind-safe palette; every pass/fail mark also carries a glyph (✓ ✗ · –),
so nothing relies on telling red from green. Readable on light and dark backgrounds. Every glyph
is one Source Sans has (``PICKED`` marks the chosen node).
"""

from __future__ import annotations

PICKED = "◆"   # the node a decision chose (selectHost, the nominated node)

OKABE_ITO = {
    "orange": "#E69F00", "sky_blue": "#56B4E9", "bluish_green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "reddish_purple": "#CC79A7", "grey": "#999999",
    "black": "#000000",
}

QUEUE_COLOURS = {
    "activeQ": OKABE_ITO["blue"],
    "podBackoffQ": OKABE_ITO["orange"],
    "unschedulableQ": OKABE_ITO["vermillion"],
    "inFlight": OKABE_ITO["reddish_purple"],
    "bound": OKABE_ITO["bluish_green"],
}
# Glyphs are drawn from Source Sans, the font Streamlit ships (charts use it too): no emoji, which a
# Linux browser without an emoji font shows as empty boxes.
QUEUE_GLYPHS = {"activeQ": "▶", "podBackoffQ": "‖", "unschedulableQ": "■", "inFlight": "◉", "bound": "✓"}

# Filter outcomes: colour + glyph + meaning. Codes are the heatmap's z values (fixed zmin/zmax).
FILTER_PASS, FILTER_FAIL, FILTER_NOT_EVALUATED, FILTER_NOT_VISITED = 0, 1, 2, 3
FILTER_OUTCOMES = {
    FILTER_PASS: ("✓", OKABE_ITO["bluish_green"]),
    FILTER_FAIL: ("✗", OKABE_ITO["vermillion"]),
    FILTER_NOT_EVALUATED: ("·", "#D9D9D9"),
    FILTER_NOT_VISITED: ("–", "#F2F2F2"),
}

# In-tree plugins in the v1.18.5 default-profile order, each with a fixed colour.
_PLUGIN_ORDER = (
    "PrioritySort", "NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity",
    "VolumeRestrictions", "TaintToleration", "EBSLimits", "GCEPDLimits", "NodeVolumeLimits",
    "AzureDiskLimits", "VolumeBinding", "VolumeZone", "InterPodAffinity", "PodTopologySpread",
    "DefaultPodTopologySpread", "NodeResourcesBalancedAllocation", "ImageLocality",
    "NodeResourcesLeastAllocated", "NodeResourcesMostAllocated", "NodePreferAvoidPods",
    "RequestedToCapacityRatio", "NodeResourceLimits", "NodeLabel", "ServiceAffinity", "CinderLimits",
    "DefaultBinder",
)
_PLUGIN_PALETTE = (
    OKABE_ITO["blue"], OKABE_ITO["orange"], OKABE_ITO["bluish_green"], OKABE_ITO["reddish_purple"],
    OKABE_ITO["sky_blue"], OKABE_ITO["vermillion"], OKABE_ITO["yellow"], "#5D3A9B", "#8C564B",
    "#17BECF", "#7F7F7F", "#BCBD22",
)
PLUGIN_COLOURS = {name: _PLUGIN_PALETTE[i % len(_PLUGIN_PALETTE)] for i, name in enumerate(_PLUGIN_ORDER)}


def plugin_colour(name: str) -> str:
    """A plugin's fixed colour; out-of-tree plugins get a stable colour from their name."""
    if name in PLUGIN_COLOURS:
        return PLUGIN_COLOURS[name]
    return _PLUGIN_PALETTE[sum(map(ord, name)) % len(_PLUGIN_PALETTE)]
