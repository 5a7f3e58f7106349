"""The one Simulation of a browser session, kept in ``st.session_state``.

Upstream: no counterpart (dashboard plumbing).

Keys in ``st.session_state``:

- ``"sim"``: the current :class:`~kubesched.sim.simulation.Simulation` (never shared between
  sessions, never in ``st.cache_resource``: it is mutable).
- ``"cluster"``: the sample cluster picked in the sidebar (``?cluster=`` names it, see ``url_state``).
- ``"cluster_source"``: a label for where the simulation came from (a sample file name, an
  uploaded file name, or ``"<name> (edited)"``).
- ``"cluster_text"``: the learner's YAML, kept even when it does not load.
- ``"cluster_errors"``: the problems of the last text that did not load (``[]`` when it did).
- ``"cluster_valid_text"``: the text of the running simulation; ``"cluster_text_version"``: bumped
  whenever a load replaces the text (an editor showing ``cluster_text()`` re-reads it then).
- ``"cluster_problem_rows"``: the same problems as rows (line, object, field, message).
- ``"lang"``: ``"en"`` or ``"zh"``.
- ``"_pending_load"``: the load under way ((source, name, text), or ``RESTART``) and a weak reference
  to the Simulation it replaces, until it is installed.

A load is written down before it is computed and crossed off once installed: Streamlit stops a
script run, a callback in the middle of its work included, when the learner clicks elsewhere
meanwhile (``runner.fastReruns``; every read or write of the session state is a point where it
stops). Apply followed at once by a tab switch, on a busy server, lost the Apply that way
(``benchmarks/load_sessions.py``). The next full run finishes a load still written down
(``finish_interrupted_load``, from app.py), so the learner's Apply, upload, pick or Restart is never
dropped; one installed but not crossed off (its run replaced already) is not done twice.

A cluster is run to the end (idle, horizon or event cap) as soon as it is loaded when it is
small (``EAGER_LIMIT`` nodes + pods), so the slider spans the whole run; the cursor then goes
back to 0 (or to ``?step=``). Bigger clusters are computed lazily as the cursor moves.
"""

from __future__ import annotations

import weakref
from pathlib import Path

import streamlit as st

from kubesched.sim.limits import DASHBOARD
from kubesched.sim.simulation import CHECKPOINT_LIMIT, Simulation, reclaim_dropped_runs
from kubesched.sim.vocabulary import INPUT_ERRORS
from kubesched.ui import url_state
from kubesched.ui.status import computing
from kubesched.ui.widget_default import index_of

LINK_SOURCE = "scenario from the link"
LINK_REFUSED = "_link_refused"   # True when ?scenario= did not decode or load (the sample opened instead)
SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_clusters"
DEFAULT_CLUSTER = "default.yaml"
SEED = 0
EAGER_LIMIT = CHECKPOINT_LIMIT

SIM, CLUSTER, SOURCE, TEXT, ERRORS, LANG = ("sim", "cluster", "cluster_source", "cluster_text",
                                            "cluster_errors", "lang")
VALID_TEXT, TEXT_VERSION, PROBLEM_ROWS = "cluster_valid_text", "cluster_text_version", "cluster_problem_rows"
PENDING = "_pending_load"
RESTART = "restart"   # the pending work of a Restart (a load's is its (source, name, text))
LOAD_ERRORS = INPUT_ERRORS


def sample_clusters() -> list[str]:
    """File names of the built-in sample clusters, the default first."""
    names = sorted(p.name for p in SAMPLE_DIR.glob("*.yaml"))
    return sorted(names, key=lambda n: n != DEFAULT_CLUSTER)


def _query(name: str) -> str | None:
    value = st.query_params.get(name)
    return value if value else None


def init_language() -> str:
    """The language of this session: set once, from ``?lang=`` or else the browser locale (``zh*`` → 中文)."""
    if LANG not in st.session_state:
        wanted = _query(LANG)
        locale = st.context.locale or ""
        st.session_state[LANG] = wanted if wanted in ("en", "zh") else (
            "zh" if locale.lower().startswith("zh") else "en")
    return st.session_state[LANG]


def lang() -> str:
    return st.session_state.get(LANG, "en")


def ensure() -> Simulation:
    """Create the session's Simulation on its first run (``?scenario=`` or ``?cluster=``, and ``?step=``)."""
    if SIM not in st.session_state:
        reclaim_dropped_runs()  # a new visitor: free the runs of sessions that have ended
        name = _query(CLUSTER)
        if name not in sample_clusters():
            name = DEFAULT_CLUSTER
        st.session_state[CLUSTER] = name
        link = _query(url_state.SCENARIO)
        text = url_state.decode_scenario(link) if link else None
        if text is None or load_cluster_text(text, LINK_SOURCE):
            st.session_state[LINK_REFUSED] = link is not None
            load_sample(name)
        step = _query("step")
        if step is not None and step.isdigit():
            current().seek(int(step))
    return current()


def current() -> Simulation:
    """The Simulation of this browser session (created on first use), after any load or Restart still
    written down: a callback that follows a stopped Restart (Run to idle, ▶) acts on the new run."""
    if PENDING in st.session_state:
        finish_interrupted_load()
    if SIM not in st.session_state:
        return ensure()
    return st.session_state[SIM]


def cluster_text() -> str:
    """The learner's cluster YAML (the last text applied or loaded, valid or not)."""
    return st.session_state.get(TEXT, "")


def cluster_source() -> str:
    """Where the current simulation came from (sample file, upload, or an edited text)."""
    return st.session_state.get(SOURCE, DEFAULT_CLUSTER)


def cluster_errors() -> list[str]:
    """The problems of the last text that did not load (``[]`` after a successful load)."""
    return list(st.session_state.get(ERRORS, []))


def cluster_problem_rows() -> list[dict[str, object]]:
    """``cluster_errors()`` as rows: line, object, field path, message."""
    return list(st.session_state.get(PROBLEM_ROWS, []))


def valid_cluster_text() -> str:
    """The YAML of the running simulation (the last text that loaded)."""
    return st.session_state.get(VALID_TEXT, "")


def text_version() -> int:
    """A counter bumped whenever a load replaced the cluster text."""
    return int(st.session_state.get(TEXT_VERSION, 0))


def set_cluster_text(text: str) -> None:
    """Keep the learner's draft (not applied yet)."""
    st.session_state[TEXT] = text


def restore_draft(text: str) -> None:
    """Put back a draft saved by this browser (an open editor re-reads it)."""
    st.session_state[TEXT] = text
    st.session_state[TEXT_VERSION] = text_version() + 1


def _new_simulation(source: str | Path) -> Simulation:
    """A sample file (``Path``) or the learner's text (``str``: only ever YAML text, never a path)."""
    with computing():
        if isinstance(source, Path):
            return _eager(Simulation.from_path(source, seed=SEED))
        return _eager(Simulation.from_text(source, seed=SEED, limits=DASHBOARD))


def _eager(sim: Simulation) -> Simulation:
    """``sim`` run to its end and rewound to 0 when it is small (``EAGER_LIMIT``), else as is."""
    if _small(sim):
        sim.run_until_idle()
        sim.seek(0)
    return sim


def _small(sim: Simulation) -> bool:
    objects = sim.inputs.objects
    return sum(type(o).__name__ in ("Node", "Pod") for o in objects) <= EAGER_LIMIT


def _install(sim: Simulation, source: str, text: str) -> None:
    """The Simulation goes in last: once it is there, the load is done (``_done_already``)."""
    st.session_state[SOURCE] = source
    st.session_state[TEXT] = text
    st.session_state[VALID_TEXT] = text
    st.session_state[ERRORS] = []
    st.session_state[PROBLEM_ROWS] = []
    st.session_state[TEXT_VERSION] = text_version() + 1
    st.session_state[SIM] = sim


def load_sample(name: str) -> None:
    """Load ``sample_clusters/<name>`` (cursor at 0)."""
    path = SAMPLE_DIR / name
    _load(path, name, path.read_text(encoding="utf-8"))


def _errors_of(err: Exception) -> list[object]:
    problems = getattr(err, "problems", None)
    return [p for p in problems if not getattr(p, "warning", False)] if problems else []


def problems_of(err: Exception, name: str) -> list[str]:
    """One line per problem (file:line: object: field path: message), the file shown as ``name``."""
    lines = [str(p) for p in _errors_of(err)] or [str(err)]
    return [line.replace("<string>", name, 1) for line in lines]


def problem_rows(err: Exception) -> list[dict[str, object]]:
    """The problems as table rows: line, object (LoadProblem's subject), field path, message."""
    rows = []
    for p in _errors_of(err):
        subject = p.subject() if hasattr(p, "subject") else ("Scenario" if type(p).__name__ == "ScenarioProblem"
                                                             else "KubeSchedulerConfiguration")
        rows.append({"line": getattr(p, "line", None), "object": subject, "field": getattr(p, "path", ""),
                     "message": getattr(p, "message", str(p))})
    return rows or [{"line": None, "object": "", "field": "", "message": str(err)}]


def load_cluster_text(text: str, name: str) -> list[str]:
    """Load a cluster from YAML text; on errors keep the previous simulation and return them.

    The text is kept in the session either way (``cluster_text()``), so nothing the learner
    typed is lost.
    """
    st.session_state[TEXT] = text
    return _load(text, name, text)


def _load(source: str | Path, name: str, text: str) -> list[str]:
    _write_down((source, name, text))
    return finish_interrupted_load()


def _write_down(work: tuple[str | Path, str, str] | str) -> None:
    """Note ``work`` (a load's (source, name, text), or ``RESTART``) and the run it replaces."""
    sim = st.session_state.get(SIM)
    st.session_state[PENDING] = (work, None if sim is None else weakref.ref(sim))


def _done_already(replaces: weakref.ref | None) -> bool:
    """The pending work was installed and only its crossing-off was stopped: the run it replaced is
    gone. Doing it again would give the learner another Simulation object (a Run to idle in slices
    under way is tied to the one installed) and undo the steps taken since."""
    sim = st.session_state.get(SIM)
    return (sim is not None) if replaces is None else (replaces() is not sim)


def finish_interrupted_load() -> list[str]:
    """Compute and install the load (or Restart) written down in the session, if any; its problems
    (``[]`` when it loaded or when none was pending). The previous simulation stays on errors."""
    pending = st.session_state.get(PENDING)
    if pending is None:
        return []
    work, replaces = pending
    if _done_already(replaces):
        del st.session_state[PENDING]
        return []
    if work == RESTART:
        st.session_state[SIM] = _restarted(st.session_state[SIM])
        del st.session_state[PENDING]
        return []
    source, name, text = work
    try:
        sim = _new_simulation(source)
    except LOAD_ERRORS as err:
        errors = problems_of(err, name)
        st.session_state[ERRORS] = errors
        st.session_state[PROBLEM_ROWS] = problem_rows(err)
        del st.session_state[PENDING]
        return errors
    _install(sim, name, text)
    del st.session_state[PENDING]
    return []


def reset() -> None:
    """Rebuild the simulation from its inputs (edits dropped, cursor at 0); the learner's draft stays.

    Written down first, as a load is; a load already pending is a fresh run at 0 itself, so it is
    finished instead.
    """
    if st.session_state.get(PENDING) is None:
        _write_down(RESTART)
    finish_interrupted_load()


def _restarted(sim: Simulation) -> Simulation:
    with computing():
        return _eager(Simulation(sim.inputs, trace=sim.tracing, horizon=sim.horizon, max_events=sim.max_events))


def on_pick_cluster() -> None:
    """Callback of the sidebar cluster picker."""
    load_sample(st.session_state[CLUSTER])


def pick_sample(name: str) -> None:
    """Callback for a "use this cluster" button: load it and point the picker at it."""
    st.session_state[CLUSTER] = name
    load_sample(name)


def render_picker() -> None:
    """The sidebar cluster picker (all of ``sample_clusters/*.yaml``)."""
    from kubesched.ui.i18n import t

    lg = lang()
    names = sample_clusters()
    st.selectbox(t("home.picker", lg), names, key=CLUSTER, index=index_of(CLUSTER, names), on_change=on_pick_cluster)
    source = cluster_source()
    if source != st.session_state.get(CLUSTER):
        st.caption(t("home.custom_source", lg))
        st.text(source)
    render_action_errors()


def render_action_errors() -> None:
    """A small sidebar notice: the run's Scenario actions the API server refused, each with its
    time (as far as the run has been computed: ``Simulation.action_errors``)."""
    from kubesched.ui.figures.markup import md
    from kubesched.ui.i18n import t

    refused = current().action_errors
    if not refused:
        return
    lg = lang()
    lines = [t("home.action_errors", lg, n=len(refused))] + [
        "- " + md(t("home.action_error", lg, time=e.time, action=e.action, error=e.error,
                    where=f"spec.actions[{e.index}]" if e.index is not None else "edit")) for e in refused]
    st.warning("\n".join(lines), icon="⚠️")
