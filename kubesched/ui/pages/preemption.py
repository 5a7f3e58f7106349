"""Preemption: each attempt so far, from eligibility to the victims' deletion.

Upstream: pkg/scheduler/scheduler.go (Scheduler.preempt), pkg/scheduler/core/generic_scheduler.go
(genericScheduler.Preempt, selectVictimsOnNode, pickOneNodeForPreemption). Layout only: rows and
figures come from kubesched/ui/figures/preemption.py.
"""

from __future__ import annotations

import streamlit as st

from kubesched.ui import charts, fragments, session
from kubesched.ui.figures import preemption as fig
from kubesched.ui.figures.markup import md, section_link
from kubesched.ui.fragments import cursor_views
from kubesched.ui.i18n import t

ATTEMPT_KEY = "preemption_attempt"
SHOWCASE = "preemption.yaml"


def link(section: str) -> str:
    return section_link(fig.SECTION_LINKS, section)


def on_showcase() -> None:
    session.pick_sample(SHOWCASE)
    session.current().step("pod")
    fragments.rerun_app()


lang = session.lang()
st.title(t("preemption.title", lang))
st.caption(t("preemption.intro", lang))

def views() -> None:
    """Everything on this page that depends on the cursor (rerun with the stepper)."""
    sim = session.current()
    visible = sim.trace[:sim.cursor]
    st.markdown(f"{link('preempt')} · {link('result')}")

    attempts = fig.preemption_attempts(visible)
    if not attempts:
        st.info(t("preemption.none", lang))
        if session.cluster_source() != SHOWCASE:
            st.button(t("preemption.showcase", lang), key="preemption_showcase", on_click=on_showcase)
        return

    by_cycle = {a.cycle: a for a in attempts}
    if st.session_state.get(ATTEMPT_KEY) not in by_cycle:
        st.session_state[ATTEMPT_KEY] = attempts[-1].cycle
    chosen = st.selectbox(
        t("preemption.pick", lang), list(reversed(list(by_cycle))), key=ATTEMPT_KEY,
        format_func=lambda c: t("preemption.pick_item", lang, cycle=c, pod=by_cycle[c].pod,
                                node=by_cycle[c].nominated_node or "—", time=f"{by_cycle[c].time:g}"))
    attempt = by_cycle[chosen]

    # -- the answer first -------------------------------------------------------------------------------
    if attempt.nominated_node:
        st.success(t("preemption.answer", lang, pod=md(attempt.pod), node=md(attempt.nominated_node),
                     victims=md(", ".join(attempt.victims) or "—"), rule=attempt.criterion))
    elif attempt.eligible is False:
        st.info(t("preemption.answer_ineligible", lang, pod=md(attempt.pod)))
    elif attempt.done:
        st.info(t("preemption.answer_nothing", lang, pod=md(attempt.pod)))
    else:
        st.info(t("preemption.answer_running", lang))

    # 1. trigger
    st.markdown(f"#### 1 · {t('preemption.trigger', lang)}")
    st.caption(t("preemption.trigger_caption", lang))
    if attempt.failure:
        st.code(attempt.failure, language=None)

    # 2. eligibility
    st.markdown(f"#### 2 · {t('preemption.eligibility', lang)} · {link('eligibility')}")
    if attempt.eligible is None:
        st.text(t("preemption.not_yet", lang))
    elif attempt.eligible:
        st.markdown("✓ " + t("preemption.eligible", lang))
    else:
        st.markdown("✗ " + t("preemption.ineligible", lang))
        st.text(attempt.ineligible_reason)
        if attempt.terminating_pods:
            st.text(", ".join(attempt.terminating_pods))

    # 3. candidates
    st.markdown(f"#### 3 · {t('preemption.candidates', lang)} · {link('candidates')}")
    st.caption(t("preemption.candidates_caption", lang))
    if attempt.potential_nodes or attempt.unresolvable_nodes:
        st.text(t("preemption.potential", lang) + ": " + (", ".join(attempt.potential_nodes) or "—"))
        st.text(t("preemption.unresolvable", lang) + ": " + (", ".join(attempt.unresolvable_nodes) or "—"))
    else:
        st.text(t("preemption.not_yet", lang))

    # 4. victims per node
    st.markdown(f"#### 4 · {t('preemption.victims', lang)} · {link('victims')} · {link('pdb')}")
    st.caption(t("preemption.victims_caption", lang))
    if attempt.candidates:
        priorities = {p.key: p.priority for p in sim.state().pods}
        if any(c.fits for c in attempt.candidates):
            charts.show(fig.victims_figure(attempt, lang), "preemption_victims")
        st.dataframe(fig.candidate_rows(attempt, priorities, lang), hide_index=True, key="preemption_candidates",
                     width="stretch")
    else:
        st.text(t("preemption.not_yet", lang))

    # 5. pickOneNodeForPreemption
    st.markdown(f"#### 5 · {t('preemption.rules', lang)} · {link('pick')}")
    st.caption(t("preemption.rules_caption", lang))
    if attempt.rounds:
        charts.show(fig.pick_rounds_figure(attempt, lang), "preemption_rounds")
        st.caption(fig.rounds_legend(lang))
        for rule, left in attempt.rounds:
            st.text(t("preemption.round_line", lang, rule=rule, nodes=", ".join(left)))
        st.markdown(t("preemption.decided", lang, rule=attempt.criterion, node=md(attempt.nominated_node or "—")))
    else:
        st.text(t("preemption.not_yet", lang))

    # 6. nomination
    st.markdown(f"#### 6 · {t('preemption.nominated', lang)}")
    st.caption(t("preemption.nominated_caption", lang))
    if attempt.nominated_node:
        st.text(f"status.nominatedNodeName = {attempt.nominated_node}")
        if attempt.nominated_pods_to_clear:
            st.text(t("preemption.cleared", lang) + ": " + ", ".join(attempt.nominated_pods_to_clear))
    else:
        st.text(t("preemption.not_yet", lang))

    # 7. victims' fate
    st.markdown(f"#### 7 · {t('preemption.fate', lang)}")
    st.caption(t("preemption.fate_caption", lang))
    fates = fig.victim_fates(visible, attempt, fig.controller_keys(sim.inputs.objects))
    if fates:
        st.dataframe(fig.fate_rows(fates, lang), hide_index=True, key="preemption_fates", width="stretch")
        for f in fates:
            if f.deleted_at is None:
                st.text(t("preemption.fate_pending", lang, pod=f.pod))
            elif f.replacement:
                st.text(t("preemption.fate_replaced", lang, pod=f.pod, grace=f"{f.grace_period:g}",
                          new=f.replacement, at=f"{f.replaced_at:g}"))
            else:
                st.text(t("preemption.fate_gone", lang, pod=f.pod, grace=f"{f.grace_period:g}"))
    else:
        st.text(t("preemption.no_victims", lang))


cursor_views(views)
