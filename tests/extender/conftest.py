"""Fixtures for the extender tests: a config stand-in, objects, and a live sample extender."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from kubesched.extender.sample import SampleExtender, run_sample_extender
from tests.testing.wrappers import make_node as make_node_wrapper, make_pod as make_pod_wrapper

pytestmark = pytest.mark.timeout(30)


@dataclass(frozen=True)
class ManagedResource:
    name: str
    ignored_by_scheduler: bool = False


@dataclass(frozen=True)
class ExtenderCfg:
    """The ``config.Extender`` fields HTTPExtender reads (snake_case of upstream's)."""

    url_prefix: str
    filter_verb: str = "filter"
    preempt_verb: str = "preempt"
    prioritize_verb: str = "prioritize"
    bind_verb: str = "bind"
    weight: int = 1
    enable_https: bool = False
    tls_config: Any = None
    http_timeout: Any = 2.0
    node_cache_capable: bool = False
    managed_resources: tuple = ()
    ignorable: bool = False


def make_pod(name: str = "p", uid: str = "uid-p", requests: dict | None = None,
             init_limits: dict | None = None, **spec: Any) -> Any:
    w = make_pod_wrapper().name(name).namespace("default").uid(uid).container("c", requests or None)
    if init_limits:
        w.set("spec", initContainers=[{"name": "i", "resources": {"limits": init_limits}}])
    return w.set("spec", **spec).obj()


def make_node(name: str, labels: dict | None = None) -> Any:
    w = make_node_wrapper().name(name).allocatable({"cpu": "4", "memory": "8Gi", "pods": "110"})
    return (w.labels(labels) if labels else w).obj()


@pytest.fixture
def sample() -> Iterator[tuple[SampleExtender, str]]:
    extender = SampleExtender()
    with run_sample_extender(port=0, extender=extender) as url:
        yield extender, url
