"""What the Kubernetes API added after v1.18 and dropped before it (``history.json``).

Upstream: the OpenAPI documents of Kubernetes 1.10 … 1.37 (see ``make_history``, which
writes the file). Answers "is this a typo, or a field / apiVersion from another release?".
"""

from __future__ import annotations

import functools
import json
import pathlib
from typing import Any, Mapping, Optional

HISTORY_FILE = pathlib.Path(__file__).with_name("history.json")


@functools.cache
def _history() -> Mapping[str, Any]:
    return json.loads(HISTORY_FILE.read_text(encoding="utf-8"))


def field_added(definition: str, prop: str) -> Optional[str]:
    """The release that added ``prop`` to ``definition`` after v1.18 (``"1.26"``), or None."""
    return _history()["fields"].get(definition, {}).get(prop)


def version_change(api_version: str, kind: str) -> Optional[Mapping[str, str]]:
    """``{"added": "1.21"}`` or ``{"removed": "1.16"}`` for a kind v1.18 does not serve."""
    return _history()["apiVersions"].get(f"{api_version} {kind}")


def later_groups() -> frozenset[str]:
    """API groups that only releases other than v1.18 serve (``resource.k8s.io``, …)."""
    return frozenset(key.split(" ")[0].rpartition("/")[0] for key in _history()["apiVersions"])
