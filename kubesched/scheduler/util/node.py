"""Zone identity of a node, shared by the NodeTree and DefaultPodTopologySpread.

Upstream: pkg/util/node/node.go (GetZoneKey).
"""

from __future__ import annotations

from typing import Optional

from kubesched.api.core import Node
from kubesched.api.well_known_labels import (LABEL_ZONE_FAILURE_DOMAIN, LABEL_ZONE_FAILURE_DOMAIN_STABLE,
                                             LABEL_ZONE_REGION, LABEL_ZONE_REGION_STABLE)


def get_zone_key(node: Optional[Node]) -> str:
    """``region + ":\\x00:" + zone``, or "" for a node with neither label.

    1.18 reads the beta ``failure-domain`` labels first and falls back to the stable
    ``topology.kubernetes.io`` ones; the NUL keeps "a:b" + "c" apart from "a" + "b:c".
    """
    if node is None:
        return ""
    labels = node.metadata.labels
    if not labels:
        return ""
    zone = labels.get(LABEL_ZONE_FAILURE_DOMAIN)
    if zone is None:
        zone = labels.get(LABEL_ZONE_FAILURE_DOMAIN_STABLE, "")
    region = labels.get(LABEL_ZONE_REGION)
    if region is None:
        region = labels.get(LABEL_ZONE_REGION_STABLE, "")
    if not region and not zone:
        return ""
    return region + ":\x00:" + zone
