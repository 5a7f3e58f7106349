"""The active KubeSchedulerConfiguration as tables and a plugin matrix; two configurations compared.

Upstream: pkg/scheduler/apis/config/types.go (KubeSchedulerConfiguration, Plugins, Extender),
pkg/scheduler/algorithmprovider/registry.go (getDefaultConfig: the provider's plugins and
weights), pkg/scheduler/factory.go (Configurator.createFromProvider: provider defaults
merged with each profile's plugins), cmd/kube-scheduler/app/options/configfile.go
(loadConfigFromFile: the loader whose messages the editor shows).

Pure builders (no Streamlit, no engine run): ``settings_rows``, ``plugin_rows``, ``plugin_matrix_figure``,
``extender_rows``, ``translation_rows`` (a Policy's predicates and priorities as plugins,
from pkg/scheduler/framework/plugins/legacy_registry.go) describe one configuration;
``placement_rows`` / ``placement_figure`` compare the placements of two runs. Loading a
configuration text and running a cluster with it happen on the engine side
(``kubesched.sim.compare``: ``check_config``, ``run_to_idle``).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import plotly.graph_objects as go

from kubesched.sim import config_source
from kubesched.sim.compare import (
    EMPTY_CONFIG_TEXT,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    PluginSet,
    num_feasible_nodes_to_find,
    resolve_profiles,
)
from kubesched.sim.scenario import dump
from kubesched.sim.simulation import Simulation
from kubesched.sim.state import PHASE_BOUND, PHASE_RUNNING, SimState
from kubesched.ui.figures.style import stepwise_colorscale
from kubesched.ui.i18n import t
from kubesched.ui.theme import OKABE_ITO

# (v1alpha2 YAML name, dataclass field), in the order v1.18 runs them.
EXTENSION_POINTS = (
    ("queueSort", "queue_sort"), ("preFilter", "pre_filter"), ("filter", "filter"), ("preScore", "pre_score"),
    ("score", "score"), ("reserve", "reserve"), ("permit", "permit"), ("preBind", "pre_bind"), ("bind", "bind"),
    ("postBind", "post_bind"), ("unreserve", "unreserve"))

# Plugin matrix cell codes (fixed zmin/zmax so colours never shift).
CELL_NONE, CELL_DEFAULT, CELL_CUSTOM, CELL_DISABLED = 0, 1, 2, 3
CELL_STYLE = {
    CELL_NONE: ("", "#F7F7F7"),
    CELL_DEFAULT: ("✓", OKABE_ITO["sky_blue"]),
    CELL_CUSTOM: ("◆", OKABE_ITO["orange"]),
    CELL_DISABLED: ("✗", "#BBBBBB"),
}



# -- one configuration ------------------------------------------------------------------------------
def node_count(objects: Sequence[Any]) -> int:
    """How many Nodes the cluster's objects hold (what numFeasibleNodesToFind is computed for)."""
    return sum(type(o).__name__ == "Node" for o in objects)


def settings_caption(config: KubeSchedulerConfiguration, lang: str = "en") -> str:
    """The rule behind percentageOfNodesToScore 0 (adaptive), shown under the settings table: a
    sentence too long for a table cell."""
    return t("config.note.adaptive", lang) if config.percentage_of_nodes_to_score == 0 else ""


def settings_rows(config: KubeSchedulerConfiguration, num_nodes: int, lang: str = "en") -> list[dict]:
    """The scalar settings a learner tunes, with what they mean for this cluster."""
    pct = config.percentage_of_nodes_to_score
    to_find = num_feasible_nodes_to_find(num_nodes, pct)
    le = config.leader_election
    rows = [
        _algorithm_source_row(config),
        ("percentageOfNodesToScore", str(pct), t("config.note.percentage", lang, n=num_nodes, count=to_find)),
        ("podInitialBackoffSeconds", str(config.pod_initial_backoff_seconds), t("config.note.backoff", lang)),
        ("podMaxBackoffSeconds", str(config.pod_max_backoff_seconds), ""),
        ("bindTimeoutSeconds", str(config.bind_timeout_seconds), t("config.note.bind_timeout", lang)),
        ("disablePreemption", _bool(config.disable_preemption), ""),
        ("leaderElection.leaderElect", _bool(le.leader_elect), ""),
        ("leaderElection.leaseDuration", f"{le.lease_duration_ns / 1e9:g}s", ""),
        ("leaderElection.renewDeadline", f"{le.renew_deadline_ns / 1e9:g}s", ""),
        ("leaderElection.retryPeriod", f"{le.retry_period_ns / 1e9:g}s", ""),
        ("leaderElection.resourceLock", le.resource_lock, ""),
        ("featureGates", ", ".join(f"{k}={_bool(v)}" for k, v in sorted(config.feature_gates.items())) or "—", ""),
    ]
    return [{t("config.col.field", lang): f, t("config.col.value", lang): v, t("config.col.note", lang): n}
            for f, v, n in rows]


def _algorithm_source_row(config: KubeSchedulerConfiguration) -> tuple[str, str, str]:
    source = config.algorithm_source
    if source.provider is not None or source.policy is None:
        return "algorithmSource.provider", source.provider or "", ""
    if source.policy.config_map is not None:
        ref = source.policy.config_map
        return "algorithmSource.policy.configMap", f"{ref.namespace}/{ref.name}", ""
    return "algorithmSource.policy.file", source.policy.file.path if source.policy.file else "", ""


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _set(plugins: Any, field: str) -> PluginSet:
    return (getattr(plugins, field, None) if plugins is not None else None) or PluginSet()


def plugin_rows(config: KubeSchedulerConfiguration, lang: str = "en") -> list[dict]:
    """Effective plugins per profile and extension point (provider defaults merged), plus disabled ones."""
    rows: list[dict] = []
    for custom, effective in zip(config.profiles, resolve_profiles(config)):
        for yaml_name, field in EXTENSION_POINTS:
            mine = _set(custom.plugins, field)
            custom_names = {p.name for p in mine.enabled}
            for plugin in _set(effective.plugins, field).enabled:
                origin = "custom" if plugin.name in custom_names else "default"
                rows.append(_plugin_row(effective, yaml_name, plugin.name, plugin.weight if field == "score" else None,
                                        origin, lang))
            for plugin in mine.disabled:
                rows.append(_plugin_row(effective, yaml_name, plugin.name, None, "disabled", lang))
    return rows


def _plugin_row(profile: KubeSchedulerProfile, point: str, name: str, weight: int | None, origin: str,
                lang: str) -> dict:
    glyph = CELL_STYLE[{"default": CELL_DEFAULT, "custom": CELL_CUSTOM, "disabled": CELL_DISABLED}[origin]][0]
    return {t("config.col.profile", lang): profile.scheduler_name, t("config.col.point", lang): point,
            t("config.col.plugin", lang): name, t("config.col.weight", lang): "" if weight is None else str(weight),
            t("config.col.origin", lang): f"{glyph} {t(f'config.origin.{origin}', lang)}"}


def plugin_matrix(config: KubeSchedulerConfiguration, profile_index: int = 0
                  ) -> tuple[list[str], list[str], list[list[int]], list[list[str]]]:
    """(plugins, extension points, codes, cell texts) of one profile: weight for Score, ✓/◆/✗ else."""
    custom = config.profiles[profile_index]
    effective = resolve_profiles(config)[profile_index]
    points = [name for name, _ in EXTENSION_POINTS]
    plugins: list[str] = []
    cells: dict[tuple[str, str], tuple[int, str]] = {}
    for yaml_name, field in EXTENSION_POINTS:
        mine = _set(custom.plugins, field)
        custom_names = {p.name for p in mine.enabled}
        for plugin in _set(effective.plugins, field).enabled:
            code = CELL_CUSTOM if plugin.name in custom_names else CELL_DEFAULT
            text = f"{CELL_STYLE[code][0]} {plugin.weight}" if field == "score" else CELL_STYLE[code][0]
            cells[(plugin.name, yaml_name)] = (code, text)
            if plugin.name not in plugins:
                plugins.append(plugin.name)
        for plugin in mine.disabled:
            if plugin.name == "*":
                continue
            cells.setdefault((plugin.name, yaml_name), (CELL_DISABLED, CELL_STYLE[CELL_DISABLED][0]))
            if plugin.name not in plugins:
                plugins.append(plugin.name)
    codes = [[cells.get((p, e), (CELL_NONE, ""))[0] for e in points] for p in plugins]
    texts = [[cells.get((p, e), (CELL_NONE, ""))[1] for e in points] for p in plugins]
    return plugins, points, codes, texts


def plugin_matrix_figure(config: KubeSchedulerConfiguration, profile_index: int = 0, lang: str = "en") -> go.Figure:
    """Heatmap plugin × extension point (discrete colours, fixed zmin/zmax, glyph + weight as text)."""
    plugins, points, codes, texts = plugin_matrix(config, profile_index)
    n = len(CELL_STYLE)
    scale = stepwise_colorscale([CELL_STYLE[code][1] for code in range(n)])
    hover = [[f"{p} · {e}: {t(f'config.cell.{c}', lang)}" for e, c in zip(points, row)]
             for p, row in zip(plugins, codes)]
    fig = go.Figure(go.Heatmap(
        z=codes, x=points, y=plugins, zmin=-0.5, zmax=n - 0.5, colorscale=scale, showscale=False,
        text=texts, texttemplate="%{text}", hovertext=hover, hoverinfo="text", xgap=2, ygap=2,
        textfont={"color": "#111111"}))
    fig.update_layout(height=200 + 24 * max(len(plugins), 1), margin={"l": 10, "r": 10, "t": 10, "b": 10},
                      xaxis={"side": "top", "type": "category", "automargin": True, "tickangle": -45},
                      yaxis={"autorange": "reversed", "type": "category", "automargin": True},
                      plot_bgcolor="#FFFFFF", paper_bgcolor="#FFFFFF", font={"color": "#222222"})
    return fig


def extender_rows(config: KubeSchedulerConfiguration, lang: str = "en") -> list[dict]:
    rows = []
    for e in config_source.extenders(config):
        verbs = [f"{name}={verb}" for name, verb in (("filter", e.filter_verb), ("prioritize", e.prioritize_verb),
                                                      ("preempt", e.preempt_verb), ("bind", e.bind_verb)) if verb]
        rows.append({t("config.col.url", lang): e.url_prefix, t("config.col.verbs", lang): ", ".join(verbs),
                     t("config.col.weight", lang): str(e.weight), "ignorable": _bool(e.ignorable),
                     "nodeCacheCapable": _bool(e.node_cache_capable),
                     "managedResources": ", ".join(r.name + (" (ignored)" if r.ignored_by_scheduler else "")
                                                   for r in e.managed_resources)})
    return rows


_POINT_NAMES = {"pre_filter": "PreFilter", "filter": "Filter", "pre_score": "PreScore", "score": "Score"}


def uses_policy(config: KubeSchedulerConfiguration) -> bool:
    """Whether the configuration runs a legacy Policy (rather than a provider)."""
    return config_source.translation(config) is not None


def translation_rows(config: KubeSchedulerConfiguration, lang: str = "en") -> list[dict]:
    """Predicates (预选) and priorities (优选) → plugins: the run's Policy, else every name a Policy may use."""
    translated = config_source.translation(config)
    entries = translated.rows if translated is not None else config_source.legacy_names(config)
    return [{t("config.col.kind", lang): t(f"config.kind.{row.kind}", lang),
             t("config.col.entry", lang): ", ".join(row.names) or row.key,
             t("config.col.plugins", lang): _plugin_text(row.plugins) or "—",
             t("config.col.origin", lang): t(f"config.translation.{row.origin}", lang)} for row in entries]


def _plugin_text(plugins: Sequence[tuple[str, str, int]]) -> str:
    """``Filter NodeResourcesFit, NodeName · PreFilter NodeResourcesFit`` / ``Score NodeLabel × 4``."""
    parts = []
    for point in ("filter", "pre_filter", "score", "pre_score"):
        names = [f"{name} × {weight}" if point == "score" else name for p, name, weight in plugins if p == point]
        if names:
            parts.append(f"{_POINT_NAMES[point]} {', '.join(names)}")
    return " · ".join(parts)


# -- editing ------------------------------------------------------------------------------------------
def cluster_policy(sim: Simulation) -> Any:
    """The Policy document of the Simulation's cluster file (None when it has none)."""
    loaded = sim.inputs.loaded
    docs = [d for d in (loaded.config_documents if loaded else ()) if d.data.get("kind") == config_source.POLICY_KIND]
    return docs[0].data if docs else None


def config_text(document: Any) -> str:
    """YAML text of a configuration document (dict or the loader's RawDocument); the empty one for None."""
    data = getattr(document, "data", document)
    if not isinstance(data, dict):
        return EMPTY_CONFIG_TEXT
    return dump(data)


def active_config_text(sim: Simulation) -> str:
    """The YAML the Simulation's configuration came from: its KubeSchedulerConfiguration, else its
    Policy, else the empty v1alpha2 document."""
    inputs = sim.inputs
    loaded = inputs.loaded
    in_file = {d.data.get("kind"): d for d in (loaded.config_documents if loaded else ())}
    for document in (inputs.config_document, in_file.get(config_source.CONFIG_KIND), inputs.policy_document,
                     in_file.get(config_source.POLICY_KIND)):
        if document is not None:
            return config_text(document)
    return EMPTY_CONFIG_TEXT


# -- comparing two runs ------------------------------------------------------------------------------
def placement_rows(a: SimState, b: SimState, lang: str = "en") -> list[dict]:
    """Every pod of either run: its node (or phase) with A and with B, and whether they differ."""
    pods_a = {p.key: p for p in a.pods}
    pods_b = {p.key: p for p in b.pods}
    rows = []
    for key in sorted(set(pods_a) | set(pods_b)):
        where_a, where_b = _where(pods_a.get(key)), _where(pods_b.get(key))
        rows.append({t("config.col.pod", lang): key, "A": where_a, "B": where_b,
                     t("config.col.differs", lang): "≠" if where_a != where_b else "="})
    return rows


def _where(pod: Any) -> str:
    if pod is None:
        return "—"
    if pod.phase in (PHASE_BOUND, PHASE_RUNNING):
        return pod.node
    return f"({pod.phase})"


def differing(rows: Sequence[dict], lang: str = "en") -> list[dict]:
    column = t("config.col.differs", lang)
    return [r for r in rows if r[column] == "≠"]


def placement_figure(a: SimState, b: SimState, lang: str = "en") -> go.Figure:
    """Pods per node with A and with B, side by side; the pods are in the hover."""
    nodes = [n.name for n in a.nodes] + [n.name for n in b.nodes if a.node(n.name) is None]
    fig = go.Figure()
    for label, state, colour, pattern in (("A", a, OKABE_ITO["blue"], ""), ("B", b, OKABE_ITO["orange"], "/")):
        placed = state.placements()
        per_node = {n: sorted(p for p, where in placed.items() if where == n) for n in nodes}
        fig.add_trace(go.Bar(
            x=nodes, y=[len(per_node[n]) for n in nodes], name=t("config.run", lang, label=label),
            marker={"color": colour, "pattern": {"shape": pattern}, "line": {"color": "#333333", "width": 1}},
            text=[len(per_node[n]) for n in nodes], textposition="outside",
            customdata=["<br>".join(escape(p, quote=False) for p in per_node[n]) or "—" for n in nodes],
            hovertemplate="%{x}<br>%{customdata}<extra>" + label + "</extra>"))
    fig.update_layout(barmode="group", height=360, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      yaxis={"title": t("config.axis.pods", lang), "dtick": 1, "automargin": True},
                      xaxis={"type": "category", "automargin": True}, legend={"orientation": "h", "y": 1.12},
                      plot_bgcolor="#FFFFFF", paper_bgcolor="#FFFFFF", font={"color": "#222222"})
    return fig
