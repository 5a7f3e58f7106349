"""Well-known node labels the scheduler reads.

Upstream: staging/src/k8s.io/api/core/v1/well_known_labels.go (LabelHostname,
LabelZoneFailureDomain, LabelZoneRegion, their stable forms, LabelInstanceType…).
"""

from typing import Final

LABEL_HOSTNAME: Final = "kubernetes.io/hostname"
LABEL_ZONE_FAILURE_DOMAIN: Final = "failure-domain.beta.kubernetes.io/zone"
LABEL_ZONE_REGION: Final = "failure-domain.beta.kubernetes.io/region"
LABEL_ZONE_FAILURE_DOMAIN_STABLE: Final = "topology.kubernetes.io/zone"
LABEL_ZONE_REGION_STABLE: Final = "topology.kubernetes.io/region"
LABEL_INSTANCE_TYPE: Final = "beta.kubernetes.io/instance-type"
LABEL_INSTANCE_TYPE_STABLE: Final = "node.kubernetes.io/instance-type"
