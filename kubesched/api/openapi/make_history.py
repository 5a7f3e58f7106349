"""Regenerate ``history.json``: what the Kubernetes API gained after v1.18 and lost before it.

Upstream: the OpenAPI documents of each Kubernetes release, as the ``kubernetes-validate``
package ships them (``kubernetes-json-schema/v1.N.0-local-strict/_definitions.json``).

Run once per schema refresh, with unpacked ``kubernetes_validate`` package folders of releases
that together cover v1.10 … the newest (1.24.1 carries 1.10–1.24, 1.37.0 carries 1.25–1.37)::

    python -m kubesched.api.openapi.make_history DIR [DIR ...]

It writes, next to this file:

- ``fields``: for each v1.18 definition, every property a later release added, with the
  first release that has it (``io.k8s.api.core.v1.PodSpec`` → ``schedulingGates`` → ``1.26``);
- ``apiVersions``: every ``apiVersion kind`` not served by v1.18, with the release that added
  it (``policy/v1 PodDisruptionBudget`` → ``added 1.21``) or the first release without it
  (``extensions/v1beta1 Deployment`` → ``removed 1.16``).
"""

from __future__ import annotations

import json
import pathlib
import re
import sys
from typing import Any

from kubesched.api.openapi.schema import BASE_RELEASE, META_KINDS, api_version_of, definitions

OUT = pathlib.Path(__file__).with_name("history.json")
_RELEASE = re.compile(r"^v1\.(\d+)\.0-local-strict$")
STOPPED_IN_1_16 = ("extensions/v1beta1 ", "apps/v1beta1 ", "apps/v1beta2 ")
"""Kubernetes 1.16 stopped serving these group versions' workload kinds (and NetworkPolicy,
PodSecurityPolicy under extensions); their types stayed in the OpenAPI document until 1.17."""


def _releases(dirs: list[pathlib.Path]) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    for top in dirs:
        for folder in sorted((top / "kubernetes-json-schema").iterdir()):
            match = _RELEASE.match(folder.name)
            if match:
                data = json.loads((folder / "_definitions.json").read_text(encoding="utf-8"))
                found[int(match.group(1))] = data.get("definitions") or data["$defs"]
    return dict(sorted(found.items()))


def _served(defs: dict[str, Any]) -> set[str]:
    return {f"{api_version_of(g)} {g['kind']}" for d in defs.values()
            for g in d.get("x-kubernetes-group-version-kind", ()) if g["kind"] not in META_KINDS}


def build(releases: dict[int, dict[str, Any]]) -> dict[str, Any]:
    base = definitions()
    base_minor = int(BASE_RELEASE.split(".")[1])
    fields: dict[str, dict[str, str]] = {}
    for minor, defs in releases.items():
        if minor <= base_minor:
            continue
        for name, schema in base.items():
            known = set(schema.get("properties", ()))
            for prop in defs.get(name, {}).get("properties", ()):
                if prop not in known:
                    fields.setdefault(name, {}).setdefault(prop, f"1.{minor}")
    served_base = _served(base)
    versions: dict[str, dict[str, str]] = {}
    last_seen: dict[str, int] = {}
    for minor, defs in releases.items():
        for gvk in _served(defs) - served_base:
            if minor > base_minor:
                versions.setdefault(gvk, {"added": f"1.{minor}"})
            else:
                last_seen[gvk] = minor
    for gvk, minor in last_seen.items():
        stopped = minor == base_minor - 1 and gvk.startswith(STOPPED_IN_1_16)
        versions[gvk] = {"removed": "1.16" if stopped else f"1.{minor + 1}"}
    return {"base": BASE_RELEASE,
            "fields": {k: dict(sorted(v.items())) for k, v in sorted(fields.items())},
            "apiVersions": dict(sorted(versions.items()))}


def main(argv: list[str]) -> int:
    history = build(_releases([pathlib.Path(a) for a in argv]))
    OUT.write_text(json.dumps(history, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{OUT}: {sum(len(v) for v in history['fields'].values())} fields, "
          f"{len(history['apiVersions'])} apiVersions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
