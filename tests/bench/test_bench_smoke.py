"""``python -m kubesched bench`` at tiny sizes: it runs every workload and reports its lines.

No timing is asserted (figures vary by machine); only the report's shape and that every
measured pod was scheduled.
"""

from __future__ import annotations

import io
import re

import pytest

from kubesched.bench.workloads import WORKLOADS, make_nodes, pod_objects, workload
from kubesched.cli.main import COMMANDS, build_parser, main

ROW = re.compile(r"^  (off|on) +\d+\.\d +\d+\.\d +\d+\.\d\d +\d+\.\d\d +\d+\.\d +(\d+) +(\d+)/(\d+) *$")


def bench(*argv: str) -> list[str]:
    out = io.StringIO()
    code = COMMANDS["bench"].run(build_parser().parse_args(["bench", *argv]), out)
    assert code == 0
    return out.getvalue().splitlines()


@pytest.mark.parametrize("name", list(WORKLOADS))
def test_each_workload_runs_and_reports(name: str) -> None:
    lines = bench("--workload", name, "--nodes", "6", "--init-pods", "2", "--pods", "3", "--trace", "both")
    label = f"{name}/6Nodes"
    assert lines[0] == f"{label}: nodes=6 init-pods=2 pods=3"
    rows = [ROW.match(line) for line in lines[2:4]]
    assert [m.group(1) for m in rows if m] == ["off", "on"]
    off, on = rows
    assert (off.group(3), off.group(4), on.group(3), on.group(4)) == ("3", "3", "3", "3")
    assert off.group(2) == "0" and int(on.group(2)) > 0  # trace records: none when off
    assert re.fullmatch(r"  tracing on is \d+\.\d\dx slower", lines[4])
    assert re.fullmatch(rf"{re.escape(label)}: \d+\.\d pods/s", lines[-1])


def test_one_mode_prints_one_row_and_the_summary() -> None:
    lines = bench("--workload", "SchedulingBasic", "--nodes", "3", "--init-pods", "0", "--pods", "2", "--trace", "off")
    assert len(lines) == 4
    assert ROW.match(lines[2]).group(1) == "off"
    assert re.fullmatch(r"SchedulingBasic/3Nodes: \d+\.\d pods/s", lines[3])


def test_unknown_workload_is_an_error() -> None:
    assert main(["bench", "--workload", "Nope"]) == 2


@pytest.mark.parametrize("name, nodes, init_pods, pods", [
    ("SchedulingBasic", 500, 500, 1000),
    ("SchedulingBasic", 5000, 5000, 1000),
    ("SchedulingPodAntiAffinity", 500, 100, 400),
    ("TopologySpreading", 1000, 1000, 1000),
    ("SchedulingCSIPVs", 500, 500, 1000),
])
def test_upstream_sizes(name: str, nodes: int, init_pods: int, pods: int) -> None:
    case = workload(name, nodes)
    assert (case.nodes, case.init_pods, case.pods) == (nodes, init_pods, pods)


def test_generated_objects() -> None:
    csi = workload("SchedulingCSIPVs", 2)
    nodes = make_nodes(2, csi.node_strategy)
    assert [type(o).KIND for o in nodes] == ["Node", "Node", "CSINode", "CSINode"]
    assert str(nodes[0].status.allocatable["attachable-volumes-csi-ebs.csi.aws.com"]) == "39"
    objs = list(pod_objects(csi.pod_strategy, "sched-test", 1))
    assert [type(o).KIND for o in objs] == ["PersistentVolume", "PersistentVolumeClaim", "Pod"]
    pv, pvc, pod = objs
    assert (pv.spec.csi.volume_handle, pvc.spec.volume_name, pod.spec.volumes[0].persistent_volume_claim.claim_name) \
        == ("sched-test-vol-0", "sched-test-vol-0", "pvc-0")
    basic = list(pod_objects(workload("SchedulingBasic").pod_strategy, "sched-test", 2))
    assert [type(o).KIND for o in basic] == ["ReplicationController", "Pod", "Pod"]
    assert basic[1].metadata.owner_references[0].name == "rc2" and basic[1].metadata.labels == {"name": "rc2"}


def test_compare_runs_off_then_on_and_prints_the_ratios() -> None:
    lines = bench("--workload", "SchedulingBasic", "--nodes", "4", "--init-pods", "1", "--pods", "3", "--compare")
    rows = [ROW.match(line) for line in lines[2:4]]
    assert [m.group(1) for m in rows if m] == ["off", "on"]
    assert rows[0].group(2) == "0" and int(rows[1].group(2)) > 0
    assert re.fullmatch(r"  on / off: time ×\d+\.\d\d \(CPU ×\d+\.\d\d\), peak RSS ×\d+\.\d\d", lines[4])
    assert re.fullmatch(r"SchedulingBasic/4Nodes: \d+\.\d pods/s", lines[-1])
