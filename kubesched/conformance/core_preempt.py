"""Conformance adapter for the preemption tables of the generic scheduler's tests.

Upstream: pkg/scheduler/core/generic_scheduler_test.go @ release-1.18 (TestPreempt,
TestSelectNodesForPreemption, TestPickOneNodeForPreemption, TestNodesWherePreemptionMightHelp;
fakes trueFilterPlugin, falseFilterPlugin, matchFilterPlugin and fakeFilterPlugin from
fakes_core.py, FakeExtender), translated to
core_preempt.yaml, core_select_nodes_for_preemption.yaml and
core_pick_one_node_and_potential_nodes.yaml (all with ``plugin: core.Preempt``).

One adapter dispatches on the case's expectation: ``potential_nodes`` →
nodesWherePreemptionMightHelp; ``victims`` → selectNodesForPreemption over every node;
``chosen_node_in`` → selectNodesForPreemption then pickOneNodeForPreemption;
``preempt_victims`` → Preempt, then (as upstream) the victims are marked terminating, the pod
is nominated to the chosen node and Preempt runs again (``second_preempt_victims``).

Harness choices: pods without ``status.startTime`` get ``NOW`` (upstream: ``time.Now()``,
later than every time the tables write); the Go constant name ``PreemptNever`` in a pod's
``preemptionPolicy`` is its value ``Never``; a fake extender's ProcessPreemption keeps the
nodes its predicates accept, victims unchanged (the file's notes).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from typing import Any, Optional

from kubesched.api.core import Node, Pod
from kubesched.conformance import register
from kubesched.conformance._harness import as_object
from kubesched.conformance.fakes_core import FakeFilter, FalseFilter, MatchFilter, TrueFilter
from kubesched.scheduler.core.fit_error import FitError
from kubesched.scheduler.core.generic_scheduler import GenericScheduler
from kubesched.scheduler.core.preemption import (
    NodeToVictims, Victims, nodes_where_preemption_might_help, pick_one_node_for_preemption,
    select_nodes_for_preemption)
from kubesched.scheduler.framework.plugins.registry import new_in_tree_registry
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.framework import Framework
from kubesched.scheduler.framework.v1alpha1.interface import CODE_BY_NAME, Code, Status
from kubesched.scheduler.framework.v1alpha1.plugin_args import Plugin, Plugins, PluginSet
from kubesched.scheduler.internal.cache.snapshot import Snapshot
from kubesched.client.listers.informer_listers import InformerListers

NOW = _dt.datetime(2020, 1, 1, tzinfo=_dt.timezone.utc).timestamp()
_POLICY_VALUES = {"PreemptNever": "Never", "PreemptLowerPriority": "PreemptLowerPriority"}


# ----------------------------------------------------------------------------- fake plugins

class _FakeExtender:
    """``FakeExtender`` as the notes describe it: predicates by name, preemption-capable."""

    def __init__(self, spec: dict) -> None:
        self.predicates = list(spec.get("predicates") or [])
        self.ignorable = bool(spec.get("ignorable"))
        self.interested = not spec.get("unInterested")

    def name(self) -> str:
        return "FakeExtender"

    def is_interested(self, pod: Pod) -> bool:
        return self.interested

    def is_ignorable(self) -> bool:
        return self.ignorable

    def supports_preemption(self) -> bool:
        return True

    def _passes(self, node_name: str) -> bool:
        for predicate in self.predicates:
            if predicate == "error":
                raise RuntimeError("some error")
            if predicate == "false" or (predicate not in ("true", "false") and predicate != node_name):
                return False
        return True

    def process_preemption(self, pod: Pod, node_to_victims: NodeToVictims, node_infos: Any) -> NodeToVictims:
        return {node: victims for node, victims in node_to_victims.items() if self._passes(node)}


# ----------------------------------------------------------------------------- fixtures

def _pod(manifest: dict) -> Pod:
    pod = as_object(manifest, "Pod")
    policy = pod.spec.preemption_policy
    if policy in _POLICY_VALUES:
        pod = dataclasses.replace(pod, spec=dataclasses.replace(pod.spec, preemption_policy=_POLICY_VALUES[policy]))
    return pod


def _with_start_time(pod: Pod) -> Pod:
    """``assignDefaultStartTime``."""
    if pod.status.start_time is not None:
        return pod
    return dataclasses.replace(pod, status=dataclasses.replace(pod.status, start_time=NOW))


def _fixtures(case: dict) -> tuple[Pod, list[Node], list[Pod]]:
    pod = _pod(case.get("pod") or {"spec": {"containers": []}})
    nodes = [as_object(m, "Node") for m in case.get("nodes") or []]
    pods = [_with_start_time(_pod(m)) for m in case.get("existing_pods") or []]
    return pod, nodes, pods


def _framework(case: dict, snapshot: Snapshot, listers: InformerListers) -> tuple[Framework, Optional[FakeFilter]]:
    args = case.get("args") or {}
    spec = args["plugins"]
    registry: dict[str, Any] = dict(new_in_tree_registry())
    for fixed in (TrueFilter, FalseFilter, MatchFilter):
        registry[fixed.NAME] = lambda _args, _handle, fixed=fixed: fixed()
    fake: Optional[FakeFilter] = None
    filters = [p["name"] for p in spec["plugins"] if "Filter" in p["extensions"]]
    if args.get("prepend_fake_filter") is not None:
        code = CODE_BY_NAME[args["prepend_fake_filter"]["code_for_every_node"]]
        codes = {} if code == Code.SUCCESS else {n.node_name(): code for n in snapshot.list()}
        fake = FakeFilter(codes)
        registry["FakeFilter"] = lambda _args, _handle: fake
        filters.insert(0, "FakeFilter")
    plugins = Plugins(
        queue_sort=_set([spec["queueSort"]]),
        pre_filter=_set([p["name"] for p in spec["plugins"] if "PreFilter" in p["extensions"]]),
        filter=_set(filters),
        bind=_set([spec["bind"]]),
    )
    return Framework(registry, plugins, snapshot_shared_lister=snapshot, listers=listers), fake


def _set(names: list[str]) -> PluginSet:
    return PluginSet(tuple(Plugin(name) for name in names))


@dataclasses.dataclass
class _Profile:
    framework: Framework
    name: str = "default-scheduler"


def _scheduler(case: dict, snapshot: Snapshot, listers: InformerListers) -> GenericScheduler:
    args = case.get("args") or {}
    extenders = [_FakeExtender(spec) for spec in args.get("extenders") or []]
    return GenericScheduler(None, snapshot, extenders, args.get("percentageOfNodesToScore", 0), False, listers,
                            enable_non_preempting=bool(args.get("enableNonPreempting")))


def _fit_error(pod: Pod, nodes: list[Node], case: dict) -> FitError:
    statuses = {name: Status(CODE_BY_NAME[s["code"]], tuple(s.get("reasons") or ()))
                for name, s in (case.get("fit_error_statuses") or {}).items()}
    return FitError(pod, len(nodes), statuses)


# ----------------------------------------------------------------------------- the adapter

@register("core.Preempt")
def core_preempt(case: dict, doc: dict) -> dict:
    expect = case["expect"]
    if "potential_nodes" in expect:
        return _potential_nodes(case)
    if "preempt_victims" in expect:
        return _preempt(case)
    return _select_nodes(case, expect)


def _potential_nodes(case: dict) -> dict:
    pod, nodes, pods = _fixtures(case)
    snapshot = Snapshot.new(pods, nodes)
    potential = nodes_where_preemption_might_help(snapshot.list(), _fit_error(pod, nodes, case))
    return {"potential_nodes": sorted(info.node_name() for info in potential)}


def _select_nodes(case: dict, expect: dict) -> dict:
    pod, nodes, pods = _fixtures(case)
    snapshot = Snapshot.new(pods, nodes)
    listers = InformerListers(as_object(m, m.get("kind", "")) for m in case.get("objects") or [])
    fwk, fake = _framework(case, snapshot, listers)
    g = _scheduler(case, snapshot, listers)
    state = CycleState()
    fwk.run_pre_filter_plugins(state, pod)
    pdbs = listers.pod_disruption_budgets()
    node_to_victims = select_nodes_for_preemption(g, _Profile(fwk), state, pod, snapshot.list(), pdbs, NOW)
    got: dict[str, Any] = {"victims": {node: _victims_dict(v) for node, v in node_to_victims.items()}}
    if fake is not None:
        got["fake_filter_calls"] = fake.num_filter_called
    if "chosen_node_in" in expect:
        chosen = pick_one_node_for_preemption(node_to_victims, NOW)
        got["chosen_node_in"] = expect["chosen_node_in"] if chosen in expect["chosen_node_in"] else [chosen]
    return got


def _victims_dict(victims: Victims) -> dict:
    """Victim names as a set (sorted), after checking upstream's non-increasing priority order."""
    priorities = [p.spec.priority or 0 for p in victims.pods]
    if priorities != sorted(priorities, reverse=True):
        raise AssertionError(f"victims not ordered by priority: {[p.metadata.name for p in victims.pods]}")
    return {"pods": sorted(p.metadata.name for p in victims.pods), "numPDBViolations": victims.num_pdb_violations}


def _preempt(case: dict) -> dict:
    pod, nodes, pods = _fixtures(case)
    snapshot = Snapshot.new(pods, nodes)
    listers = InformerListers()  # the PDB lister is empty in TestPreempt
    fwk, _ = _framework(case, snapshot, listers)
    g = _scheduler(case, snapshot, listers)
    prof = _Profile(fwk)
    state = CycleState()
    fwk.run_pre_filter_plugins(state, pod)
    fit_error = _fit_error(pod, nodes, case)
    node, victims, _ = g.preempt(prof, state, pod, fit_error)
    got: dict[str, Any] = {"preempt_node": node, "preempt_victims": sorted(v.metadata.name for v in victims)}
    # Upstream marks the victims as terminating and nominates the pod, then preempts again.
    for victim in victims:
        info = snapshot.get(victim.spec.node_name)
        info.remove_pod(victim)
        info.add_pod(dataclasses.replace(victim, metadata=dataclasses.replace(victim.metadata, deletion_timestamp=NOW)))
    if node is not None:
        pod = dataclasses.replace(pod, status=dataclasses.replace(pod.status, nominated_node_name=node))
    node2, victims2, _ = g.preempt(prof, state, pod, _fit_error(pod, nodes, case))
    got["second_preempt_victims"] = sorted(v.metadata.name for v in victims2) if node2 is not None else []
    return got
