"""Learner text (pod names, messages) reaches Plotly hovers escaped; the hovers' own <br> stay tags."""

from __future__ import annotations

from kubesched.sim.state import NodeState, PodState, QueueState, SimState
from kubesched.trace.records import Kind, Record, StartupStep
from kubesched.ui.figures import binding as b
from kubesched.ui.figures import configuration as c
from kubesched.ui.figures import startup as s


def test_startup_timeline_hover_keeps_its_line_break_and_neutralises_the_message() -> None:
    record = Record(0, 1.0, Kind.STARTUP_STEP, file="cmd/kube-scheduler/app/server.go", func="Run",
                    data=StartupStep("Run", "saw <b>x</b>", (("replica", "scheduler-a"),)))
    fig = s.timeline_figure(s.timeline([record], 1))
    assert list(fig.data[0].hovertext) == ["t=1s · Run<br>saw ‹b›x‹/b›"]


def test_binding_timeline_hover_escapes_message_and_detail() -> None:
    step = b.BindingStep("Bind", "binding", 3, 5, 1.0, 1.0, "Error", "pod <i>web</i> failed", "binder <x>",
                         "pkg/scheduler/scheduler.go", "Scheduler.bind")
    (bar,) = b.timeline_figure((step,), cursor=6).data
    assert list(bar.customdata[0]) == ["Scheduler.bind", bar.customdata[0][1],
                                       "pod &lt;i&gt;web&lt;/i&gt; failed binder &lt;x&gt;"]


def test_placement_figure_escapes_pod_names() -> None:
    nodes = (NodeState("n1", (), (), False, (), (), ()),)
    pods = (PodState("default", "<b>a</b>", "Bound", "n1", "", 1, 0.0), PodState("default", "z", "Bound", "n1", "", 1, 0.0))
    state = SimState(0.0, 0, "", QueueState(), nodes, pods, (), ())
    fig = c.placement_figure(state, state)
    assert list(fig.data[0].customdata) == ["default/&lt;b&gt;a&lt;/b&gt;<br>default/z"]
