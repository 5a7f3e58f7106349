"""The simulation: event loop, informers, scheduler replicas and the steppable ``Simulation``.

``Simulation`` is imported lazily (``from kubesched.sim import Simulation``) so that engine
modules can import ``kubesched.sim.loop`` / ``kubesched.sim.informers`` without pulling in
the whole simulation.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Simulation"]


def __getattr__(name: str) -> Any:
    if name == "Simulation":
        from kubesched.sim.simulation import Simulation
        return Simulation
    raise AttributeError(f"module 'kubesched.sim' has no attribute {name!r}")
