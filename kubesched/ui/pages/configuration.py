"""Configuration page: the active KubeSchedulerConfiguration (settings, effective plugins per profile
and extension point with weights, extenders), a YAML editor, and two configurations compared on the
same cluster.

Upstream: pkg/scheduler/apis/config/types.go, pkg/scheduler/algorithmprovider/registry.go,
pkg/scheduler/factory.go (createFromProvider). Layout only: rows, figures and runs come from
kubesched/ui/figures/configuration.py, checks and runs from kubesched/sim/compare.py. The two
comparison runs live in this session's
``st.session_state`` (never in a shared cache).
"""

from __future__ import annotations

import streamlit as st

from kubesched.sim import compare as engine
from kubesched.trace.upstream import FACTORY_GO, SCHED, permalink
from kubesched.ui import charts, session
from kubesched.ui.figures import configuration as fig
from kubesched.ui.figures.markup import links_line, md
from kubesched.ui.i18n import t
from kubesched.ui.status import computing

TEXT_A, TEXT_B, ORIGIN, RESULT, PROFILE = ("config_text_a", "config_text_b", "config_origin", "config_compare",
                                           "config_profile")
# The editors' texts are kept under non-widget keys too: a widget's state is dropped when its page is left.
STORE = {TEXT_A: "config_store_a", TEXT_B: "config_store_b"}
EXAMPLE_B = """\
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: NodeResourcesLeastAllocated
      enabled:
      - name: NodeResourcesMostAllocated
        weight: 1
"""
EXAMPLE_B_POLICY = """\
apiVersion: v1
kind: Policy
priorities:
- name: LeastRequestedPriority
  weight: 1
"""

lang = session.lang()
sim = session.current()
config = sim.inputs.config
active_text = fig.active_config_text(sim)
source = sim.to_scenario_yaml()
uses_policy = fig.uses_policy(config)
example_b = EXAMPLE_B_POLICY if uses_policy else EXAMPLE_B

# A new cluster (or a new active configuration) resets the editors and drops an old comparison.
origin = (session.cluster_source(), active_text)
if st.session_state.get(ORIGIN) != origin:
    st.session_state[ORIGIN] = origin
    st.session_state[STORE[TEXT_A]] = st.session_state[TEXT_A] = active_text
    st.session_state[STORE[TEXT_B]] = st.session_state[TEXT_B] = example_b
    st.session_state.pop(RESULT, None)
for widget, store in STORE.items():
    if widget not in st.session_state:
        st.session_state[widget] = st.session_state[store]


def keep(widget: str) -> None:
    st.session_state[STORE[widget]] = st.session_state[widget]


def load_example() -> None:
    st.session_state[STORE[TEXT_B]] = st.session_state[TEXT_B] = example_b


def compare() -> None:
    current = session.current()
    text, seed = current.to_scenario_yaml(), current.inputs.seed
    with computing():
        st.session_state[RESULT] = {
            "source": text,
            "A": engine.run_to_idle(text, st.session_state[TEXT_A], seed),
            "B": engine.run_to_idle(text, st.session_state[TEXT_B], seed),
        }


st.title(t("config.title", lang))
st.markdown(t("config.intro", lang))
st.caption(t("config.source.given" if sim.inputs.config_given else "config.source.default", lang))

num_nodes = fig.node_count(sim.inputs.objects)
st.subheader(t("config.settings", lang))   # a static table, full width: its sentences wrap in their cells
st.table([{md(k): md(v) for k, v in row.items()} for row in fig.settings_rows(config, num_nodes, lang)],
         hide_index=True)
if caption := fig.settings_caption(config, lang):
    st.caption(caption)
st.subheader(t("config.extenders", lang))
extenders = fig.extender_rows(config, lang)
if extenders:
    st.dataframe(extenders, hide_index=True, key="config_extenders", width="stretch")
else:
    st.text(t("config.no_extenders", lang))

st.subheader(t("config.profiles", lang))
names = [p.scheduler_name for p in config.profiles]
index = st.selectbox(t("config.profile", lang), range(len(names)), format_func=names.__getitem__,
                     key=PROFILE) if len(names) > 1 else 0
charts.show(fig.plugin_matrix_figure(config, index, lang), "config_matrix")
st.caption(t("config.matrix.caption", lang))
with st.expander(t("config.profiles", lang) + " — " + t("config.col.plugin", lang)):
    st.dataframe(fig.plugin_rows(config, lang), hide_index=True, key="config_plugins", width="stretch")

st.subheader(t("config.translation", lang))
st.caption(t("config.translation.caption." + ("policy" if uses_policy else "reference"), lang))
st.dataframe(fig.translation_rows(config, lang), hide_index=True, key="config_translation", width="stretch",
             column_config={t("config.col.kind", lang): st.column_config.TextColumn(width="small"),
                            t("config.col.plugins", lang): st.column_config.TextColumn(width="large")})

st.subheader(t("config.editor", lang))
st.caption(t("config.editor.caption", lang))
col_a, col_b = st.columns(2)
checks = {}
for label, key, column in (("A", TEXT_A, col_a), ("B", TEXT_B, col_b)):
    with column:
        st.text_area(t(f"config.editor.{label.lower()}", lang), key=key, height=320, on_change=keep, args=(key,))
        check = engine.check_config(st.session_state[key], filename=f"config-{label}.yaml",
                                    cluster_policy=fig.cluster_policy(sim))
        checks[label] = check
        if check.problems:
            st.error(t("config.invalid", lang, label=label))
            st.code("\n".join(check.problems), language=None)
        else:
            st.success(t("config.valid", lang, label=label, count=len(check.config.profiles)))
with col_b:
    st.button(t("config.example.load", lang), key="config_example", on_click=load_example,
              help=t("config.example.policy" if uses_policy else "config.example", lang))
st.button(t("config.compare", lang), key="config_compare_button", on_click=compare, type="primary",
          disabled=any(c.problems for c in checks.values()))

result = st.session_state.get(RESULT)
if result is not None:
    runs = {label: result[label] for label in ("A", "B")}
    if (result["source"] != source or runs["A"].config_text != st.session_state[TEXT_A]
            or runs["B"].config_text != st.session_state[TEXT_B]):
        st.warning(t("config.stale", lang))
    for label, run in runs.items():
        if run.error:
            st.error(t("config.run_failed", lang, label=label))
            st.code(run.error, language=None)
    if all(run.state is not None for run in runs.values()):
        a, b = runs["A"].state, runs["B"].state
        for label, run in runs.items():
            st.caption(t("config.stopped", lang, label=label, records=run.records, reason=run.stopped_reason or "—"))
        rows = fig.placement_rows(a, b, lang)
        differ = fig.differing(rows, lang)
        st.markdown(t("config.result", lang, differ=len(differ), total=len(rows)))
        charts.show(fig.placement_figure(a, b, lang), "config_placements")
        if differ:
            st.markdown(f"**{t('config.differ_table', lang)}**")
            st.dataframe(differ, hide_index=True, key="config_differ", width="stretch")
        else:
            st.info(t("config.same", lang))
        with st.expander(t("config.all_table", lang)):
            st.dataframe(rows, hide_index=True, key="config_all", width="stretch")

st.markdown(f"**{t('config.links', lang)}**")
links = (("KubeSchedulerConfiguration", f"{SCHED}/apis/config/types.go"),
         ("getDefaultConfig", f"{SCHED}/algorithmprovider/registry.go"),
         ("Configurator.createFromProvider", FACTORY_GO),
         ("NewLegacyRegistry", f"{SCHED}/framework/plugins/legacy_registry.go"),
         ("ValidateKubeSchedulerConfiguration", f"{SCHED}/apis/config/validation/validation.go"),
         ("numFeasibleNodesToFind", f"{SCHED}/core/generic_scheduler.go"))
st.markdown(links_line((name, permalink(path)) for name, path in links))
