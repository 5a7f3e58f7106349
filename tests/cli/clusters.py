"""Small inline clusters whose placements follow from v1.18.5's rules (see each pod's comment)."""

from __future__ import annotations

# Three nodes; ``big-node`` already runs ``resident`` (6 cpu), ``gpu-node`` is tainted.
#   small      500m/1Gi  -> small-node: the only other untainted node has 1.5 cpu left, so
#                           LeastAllocated and BalancedAllocation both prefer small-node.
#   hungry     7 cpu     -> Pending: small-node (2 cpu) and big-node (2 cpu left) lack cpu; gpu-node
#                           fits but has a taint it does not tolerate (NodeResourcesFit runs first).
#   picky      100m, required node affinity disk=ssd, which no node has -> Pending.
#   tolerant   1 cpu, tolerates the gpu taint -> gpu-node, by far the least allocated node it may use
#              (hungry's verdicts do not depend on the order: gpu-node keeps >= 7 cpu either way).
THREE_NODES = """\
apiVersion: v1
kind: Node
metadata:
  name: small-node
  labels: {kubernetes.io/hostname: small-node}
status:
  capacity: {cpu: "2", memory: 4Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: big-node
  labels: {kubernetes.io/hostname: big-node}
status:
  capacity: {cpu: "8", memory: 16Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-node
  labels: {kubernetes.io/hostname: gpu-node}
spec:
  taints:
  - {key: dedicated, value: gpu, effect: NoSchedule}
status:
  capacity: {cpu: "8", memory: 16Gi, pods: "110"}
---
apiVersion: v1
kind: Pod
metadata: {name: resident, namespace: default}
spec:
  nodeName: big-node
  containers:
  - {name: c, image: busybox, resources: {requests: {cpu: "6", memory: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: small, namespace: default}
spec:
  containers:
  - {name: c, image: nginx, resources: {requests: {cpu: 500m, memory: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: hungry, namespace: default}
spec:
  containers:
  - {name: c, image: busybox, resources: {requests: {cpu: "7", memory: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: picky, namespace: default}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: disk, operator: In, values: [ssd]}
  containers:
  - {name: c, image: nginx, resources: {requests: {cpu: 100m, memory: 100Mi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: tolerant, namespace: default}
spec:
  tolerations:
  - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}
  containers:
  - {name: c, image: busybox, resources: {requests: {cpu: "1", memory: 1Gi}}}
"""

# What THREE_NODES ends with (pod -> node, "" for pending).
THREE_NODES_PLACEMENTS = {
    "default/resident": "big-node",
    "default/small": "small-node",
    "default/hungry": "",
    "default/picky": "",
    "default/tolerant": "gpu-node",
}

TAINT_REASON = "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate"  # v1.18.5 wording
AFFINITY_REASON = "node(s) didn't match node selector"

BAD_CLUSTER = """\
apiVersion: v1
kind: Pod
metadata: {name: broken, namespace: default}
spec:
  containers:
  - {name: c, image: nginx, resources: {requests: {cpu: lots}}}
"""
