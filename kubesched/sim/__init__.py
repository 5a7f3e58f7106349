"""The steppable simulation: scheduler replicas on one loop, the cursor over the trace, edits.

The top of the engine: it stands on the runtime (``kubesched.util``), client-go's parts
(``kubesched.client``), the scheduler and ``cmd/app``. ``Simulation`` is imported lazily
(``from kubesched.sim import Simulation``) so importing one ``sim`` module stays cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Simulation"]


def __getattr__(name: str) -> Any:
    if name == "Simulation":
        from kubesched.sim.simulation import Simulation
        return Simulation
    raise AttributeError(f"module 'kubesched.sim' has no attribute {name!r}")
