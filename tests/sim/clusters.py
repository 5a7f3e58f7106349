"""Small clusters for the Simulation tests (YAML text, built with a few helpers)."""

from __future__ import annotations


def node(name: str, cpu: str = "2", zone: str = "zone-a") -> str:
    return f"""---
apiVersion: v1
kind: Node
metadata:
  name: {name}
  labels: {{kubernetes.io/hostname: {name}, topology.kubernetes.io/zone: {zone}}}
status:
  capacity: {{cpu: "{cpu}", memory: 8Gi, pods: "110"}}
"""


def pod(name: str, cpu: str = "500m", node_name: str = "") -> str:
    bound = f"\n  nodeName: {node_name}" if node_name else ""
    return f"""---
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: default
spec:{bound}
  containers:
  - name: c
    image: nginx
    resources:
      requests: {{cpu: {cpu}}}
"""


def scenario(*actions: str, seed: int | None = None, replicas: int = 1) -> str:
    seed_line = f"\n  seed: {seed}" if seed is not None else ""
    body = "".join(f"\n  - {a}" for a in actions) if actions else " []"
    return f"""---
apiVersion: kubesched/v1alpha1
kind: Scenario
metadata:
  name: test
spec:{seed_line}
  replicas: {replicas}
  actions:{body}
"""


SMALL = node("n1") + node("n2", zone="zone-b") + pod("web-1") + pod("web-2") + pod("db", cpu="1")
"""Two 2-CPU nodes and three pending pods that all fit."""


def acquire_tries(hostname: str, until: float, seed: int = 0, first: float = 0.0) -> list[float]:
    """When a standby replica tries to acquire the lock: ``first``, then after each try a wait of
    ``wait.Jitter(2 s, 1.2)`` = 2 + 2.4·u, u drawn from the replica's seeded source (its rng)."""
    import random
    rng = random.Random(f"leaderelection/{hostname}/{seed}")
    tries, t = [], first
    while t <= until:
        tries.append(t)
        t += 2.0 + rng.random() * 1.2 * 2.0
    return tries


def takeover_time(hostname: str, last_renewal: float, lease: float = 15.0, seed: int = 0) -> float:
    """The observedTime rule: the standby counts the lease from its first try that saw the leader's
    last renewal (at 0 the creation it saw at once), and takes over at its first try after that + lease."""
    tries = acquire_tries(hostname, last_renewal + 3 * lease, seed)
    observed = next(t for t in tries if t >= last_renewal)
    return next(t for t in tries if t >= observed + lease)
