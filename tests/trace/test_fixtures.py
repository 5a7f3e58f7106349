"""Today's decision records hold exactly what the per-call trace recorded, on every sample and lesson cluster.

The fixtures (``tests/trace/fixtures/``, written by ``benchmarks/trace_fixtures.py``) are the
records of each cluster run to idle by the engine whose recorder still stored every plugin call
(the commit before issue 12's trace change; regenerated from the per-call engine at the last
rebase, so other behaviour changes that landed meanwhile are in them). For each cluster:

- the plugin calls derived from the decision records (``kubesched.trace.calls``) equal the
  PLUGIN_CALL records, row for row and in order (envelope without ``seq``, payload);
- FEASIBLE_NODES, FILTER_WALK, NOMINATED_PASS, SCORE_SUMMARY, SELECT_HOST and PREEMPTION_*
  rendered from FILTER_RUN, SCORE_RUN and PREEMPTION (``tests/trace/legacy.py``) equal the
  recorded ones, in order;
- every other record is unchanged and in the same order.

So whatever a view or lesson showed from the old records, the new ones give the same numbers.
"""

from __future__ import annotations

import pytest

from benchmarks.trace_fixtures import clusters, fixture_path, read
from kubesched.sim.simulation import Simulation
from tests.trace.legacy import NEW_DECISION_KINDS, OLD_DECISION_KINDS, by_kind, per_call_records

CLUSTERS = clusters()


@pytest.fixture(scope="module", params=CLUSTERS, ids=[fixture_path(c).name.removesuffix(".jsonl.gz") for c in CLUSTERS])
def runs(request):
    sim = Simulation.from_yaml(request.param, seed=0)
    sim.run_until_idle()
    return by_kind(read(fixture_path(request.param))), by_kind(per_call_records(sim.trace)), sim


def test_every_sample_and_lesson_cluster_has_a_fixture():
    assert len(CLUSTERS) == 29  # 7 samples and 22 lessons
    assert all(fixture_path(c).exists() for c in CLUSTERS)


def test_derived_plugin_calls_equal_the_recorded_rows(runs):
    recorded, derived, _ = runs
    assert derived.get("PLUGIN_CALL", []) == recorded.get("PLUGIN_CALL", [])


@pytest.mark.parametrize("kind", sorted(OLD_DECISION_KINDS - {"PLUGIN_CALL"}))
def test_decision_records_render_the_old_records(runs, kind):
    recorded, derived, _ = runs
    assert derived.get(kind, []) == recorded.get(kind, [])


def test_every_other_record_is_unchanged(runs):
    recorded, derived, _ = runs
    kinds = (set(recorded) | set(derived)) - OLD_DECISION_KINDS - NEW_DECISION_KINDS
    for kind in sorted(kinds):
        assert derived.get(kind, []) == recorded.get(kind, []), kind


def test_the_trace_stores_no_plugin_call(runs):
    *_, sim = runs
    assert not [r for r in sim.trace if r.kind.value in OLD_DECISION_KINDS]
