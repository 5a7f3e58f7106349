"""klog lines at given simulated times, and -v gating."""

from __future__ import annotations

import pytest

from kubesched.trace import klog
from kubesched.trace import upstream as up
from kubesched.trace.records import Kind, LogLine, Record


def log(time: float, verbosity: int, severity: str, message: str, file: str = up.SCHEDULER_GO,
        func: str = "Scheduler.scheduleOne") -> Record:
    return Record(0, time, Kind.LOG, file=file, func=func, data=LogLine(verbosity, severity, message))


@pytest.mark.parametrize("record, line", [
    (log(5.0, 3, "I", "Attempting to schedule pod: default/a"),
     "I1201 00:00:05.000000       1 scheduler.go] Attempting to schedule pod: default/a"),
    (log(0.0, 2, "I", "Creating scheduler from algorithm provider 'DefaultProvider'", up.FACTORY_GO),
     "I1201 00:00:00.000000       1 factory.go] Creating scheduler from algorithm provider 'DefaultProvider'"),
    (log(3723.0000015, 0, "E", "error selecting node for pod: x"),
     "E1201 01:02:03.000002       1 scheduler.go] error selecting node for pod: x"),
    (log(86400 + 61.25, 0, "W", "A pod default/a no longer exists", up.FACTORY_GO),
     "W1202 00:01:01.250000       1 factory.go] A pod default/a no longer exists"),
])
def test_format_record(record, line):
    assert klog.format_record(record) == line


def test_line_numbers_when_given():
    record = log(1.5, 3, "I", "hi")
    numbers = {(up.SCHEDULER_GO, "Scheduler.scheduleOne"): 731}
    assert klog.format_record(record, numbers) == "I1201 00:00:01.500000       1 scheduler.go:731] hi"


def test_format_record_rejects_other_kinds():
    with pytest.raises(TypeError):
        klog.format_record(Record(0, 0.0, Kind.ASSUME))


@pytest.mark.parametrize("verbosity, expected", [
    (0, ["E error", "W warn"]),
    (2, ["I v2", "E error", "W warn"]),
    (5, ["I v2", "E error", "I v5", "W warn"]),
])
def test_verbosity_gating(verbosity, expected):
    records = [log(0, 2, "I", "v2"), log(0, 0, "E", "error"), Record(0, 0.0, Kind.ASSUME), log(0, 5, "I", "v5"),
               log(0, 0, "W", "warn")]
    lines = klog.format_lines(records, verbosity)
    assert [line[0] + " " + line.split("] ", 1)[1] for line in lines] == expected
