"""scheduler_perf-style benchmarks: workloads, the timed runner and ``python -m kubesched bench``.

Upstream: test/integration/scheduler_perf (v1.18). The only place under ``kubesched/`` that
reads the wall clock.
"""
