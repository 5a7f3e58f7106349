"""Every validation rule, with the API server's wording.

Upstream: pkg/apis/core/validation/validation_test.go (TestValidatePodSpec,
TestValidateTolerations, TestValidateNodeSelectorRequirement, TestValidateTaints,
TestValidateTopologySpreadConstraints), apimachinery util/validation tests.
"""

from __future__ import annotations

import pytest

from kubesched.api.field_errors import is_dns1123_subdomain, is_qualified_name, is_valid_label_value
from tests.api.helpers import messages, node, pod

SUBDOMAIN = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
             "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
DNS_LABEL = ("a DNS-1123 label must consist of lower case alphanumeric characters or '-', and must start and "
             "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
NAME_PART = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
             "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
LABEL_VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
               "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
               "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
EFFECTS = 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'


def affinity_req(expr: dict) -> dict:
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [expr]}]}}}}


NA = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]" \
     ".matchExpressions[0]"
ANTI = "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"


def anti(term: dict) -> dict:
    return {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}}


def spread(**c: object) -> dict:
    base = {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}
    base.update(c)
    return {"topologySpreadConstraints": [base]}


CASES = [
    # name, documents, expected errors
    ("valid pod", [pod()], []),
    ("pod name not a subdomain", [pod(name="Web_1")],
     [f'Pod default/Web_1: metadata.name: Invalid value: "Web_1": {SUBDOMAIN}']),
    ("no name", [{"apiVersion": "v1", "kind": "Pod", "metadata": {}, "spec": pod()["spec"]}],
     ["Pod (document 0): metadata.name: Required value: name or generateName is required"]),
    ("namespace not a DNS label", [pod(namespace="Team.A")],
     [f'Pod Team.A/p: metadata.namespace: Invalid value: "Team.A": {DNS_LABEL}']),
    ("label key with bad name part", [pod(labels={"app/": "x"})],
     ['Pod default/p: metadata.labels.app/: Invalid value: "app/": name part must be non-empty',
      f'Pod default/p: metadata.labels.app/: Invalid value: "app/": {NAME_PART}']),
    ("label value too long", [pod(labels={"a": "x" * 64})],
     [f'Pod default/p: metadata.labels.a: Invalid value: "{"x" * 64}": must be no more than 63 characters']),
    ("label value bad characters", [pod(labels={"a": "-x"})],
     [f'Pod default/p: metadata.labels.a: Invalid value: "-x": {LABEL_VALUE}']),
    ("annotation key", [pod(annotations={"a b": "x"})],
     [f'Pod default/p: metadata.annotations.a b: Invalid value: "a b": {NAME_PART}']),
    ("missing containers", [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}}],
     ["Pod default/p: spec.containers: Required value"]),
    ("empty containers", [pod({"containers": []})], ["Pod default/p: spec.containers: Required value"]),
    ("container without name", [pod({"containers": [{"image": "x"}]})],
     ["Pod default/p: spec.containers[0].name: Required value"]),
    ("container name not a DNS label", [pod({"containers": [{"name": "Web", "image": "i"}]})],
     [f'Pod default/p: spec.containers[0].name: Invalid value: "Web": {DNS_LABEL}']),
    ("duplicate container names", [pod({"containers": [{"name": "a", "image": "i"}, {"name": "a", "image": "i"}]})],
     ['Pod default/p: spec.containers[1].name: Duplicate value: "a"']),
    ("invalid quantity", [pod({"containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "12x"}}}]})],
     ['Pod default/p: spec.containers[0].resources.requests.cpu: "12x" is not a valid quantity']),
    ("negative quantity", [pod({"containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "-1"}}}]})],
     ['Pod default/p: spec.containers[0].resources.requests.cpu: Invalid value: "-1": must be greater than '
      'or equal to 0']),
    ("request above limit", [pod({"containers": [{"name": "c", "image": "i", "resources": {
        "requests": {"cpu": "2"}, "limits": {"cpu": "1"}}}]})],
     ['Pod default/p: spec.containers[0].resources.requests.cpu: Invalid value: "2": must be less than or '
      'equal to cpu limit']),
    ("container port zero", [pod({"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 0}]}]})],
     ["Pod default/p: spec.containers[0].ports[0].containerPort: Required value"]),
    ("container port out of range", [pod({"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 70000}]}]})],
     ["Pod default/p: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and "
      "65535, inclusive"]),
    ("host port out of range", [pod({"containers": [{"name": "c", "image": "i", "ports": [
        {"containerPort": 80, "hostPort": -1}]}]})],
     ["Pod default/p: spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, "
      "inclusive"]),
    ("protocol", [pod({"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80, "protocol": "ICMP"}]}]})],
     ['Pod default/p: spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: '
      '"SCTP", "TCP", "UDP"']),
    ("init container checked too", [pod({"initContainers": [{"name": "I", "image": "i"}]})],
     [f'Pod default/p: spec.initContainers[0].name: Invalid value: "I": {DNS_LABEL}']),
    ("node selector value", [pod({"nodeSelector": {"disk": "ssd!"}})],
     [f'Pod default/p: spec.nodeSelector.disk: Invalid value: "ssd!": {LABEL_VALUE}']),
    ("toleration operator unsupported", [pod({"tolerations": [{"key": "k", "operator": "Foo"}]})],
     ['Pod default/p: spec.tolerations[0].operator: Unsupported value: "Foo": supported values: "Equal", '
      '"Exists"']),
    ("toleration Exists with a value", [pod({"tolerations": [{"key": "k", "operator": "Exists",
                                                              "value": "v"}]})],
     ['Pod default/p: spec.tolerations[0].operator: Invalid value: "Exists": value must be empty when '
      '`operator` is \'Exists\'']),
    ("toleration empty key needs Exists", [pod({"tolerations": [{"operator": "Equal", "value": "v"}]})],
     ['Pod default/p: spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when '
      '`key` is empty, which means "match all values and all keys"']),
    ("toleration effect", [pod({"tolerations": [{"key": "k", "effect": "Foo"}]})],
     [f'Pod default/p: spec.tolerations[0].effect: Unsupported value: "Foo": {EFFECTS}']),
    ("tolerationSeconds needs NoExecute", [pod({"tolerations": [{"key": "k", "effect": "NoSchedule",
                                                                 "tolerationSeconds": 10}]})],
     ['Pod default/p: spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' '
      'when `tolerationSeconds` is set']),
    ("toleration value not a label value", [pod({"tolerations": [{"key": "k", "value": "a b"}]})],
     [f'Pod default/p: spec.tolerations[0].operator: Invalid value: "a b": {LABEL_VALUE}']),
    ("node selector operator", [pod(affinity_req({"key": "k", "operator": "Foo"}))],
     [f'Pod default/p: {NA}.operator: Invalid value: "Foo": not a valid selector operator']),
    ("In needs values", [pod(affinity_req({"key": "k", "operator": "In"}))],
     [f"Pod default/p: {NA}.values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]),
    ("NotIn needs values", [pod(affinity_req({"key": "k", "operator": "NotIn", "values": []}))],
     [f"Pod default/p: {NA}.values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]),
    ("Exists takes no values", [pod(affinity_req({"key": "k", "operator": "Exists", "values": ["a"]}))],
     [f"Pod default/p: {NA}.values: Forbidden: may not be specified when `operator` is 'Exists' or "
      "'DoesNotExist'"]),
    ("DoesNotExist takes no values", [pod(affinity_req({"key": "k", "operator": "DoesNotExist",
                                                        "values": ["a"]}))],
     [f"Pod default/p: {NA}.values: Forbidden: may not be specified when `operator` is 'Exists' or "
      "'DoesNotExist'"]),
    ("Gt takes one value", [pod(affinity_req({"key": "k", "operator": "Gt", "values": ["1", "2"]}))],
     [f"Pod default/p: {NA}.values: Required value: must be specified single value when `operator` is 'Lt' "
      "or 'Gt'"]),
    ("Lt takes one value", [pod(affinity_req({"key": "k", "operator": "Lt"}))],
     [f"Pod default/p: {NA}.values: Required value: must be specified single value when `operator` is 'Lt' "
      "or 'Gt'"]),
    ("valid Gt", [pod(affinity_req({"key": "k", "operator": "Gt", "values": ["1"]}))], []),
    ("empty nodeSelectorTerms", [pod({"affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}})],
     ["Pod default/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
      ".nodeSelectorTerms: Required value: must have at least one node selector term"]),
    ("preferred weight out of range", [pod({"affinity": {"nodeAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 101, "preference": {}}]}}})],
     ["Pod default/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
      "Invalid value: 101: must be in the range 1-100"]),
    ("label selector operator Gt is not allowed", [pod(anti({"topologyKey": "zone", "labelSelector": {
        "matchExpressions": [{"key": "app", "operator": "Gt", "values": ["1"]}]}}))],
     [f'Pod default/p: {ANTI}.labelSelector.matchExpressions[0].operator: Invalid value: "Gt": not a valid '
      'selector operator']),
    ("label selector In needs values", [pod(anti({"topologyKey": "zone", "labelSelector": {
        "matchExpressions": [{"key": "app", "operator": "In"}]}}))],
     [f"Pod default/p: {ANTI}.labelSelector.matchExpressions[0].values: Required value: must be specified "
      "when `operator` is 'In' or 'NotIn'"]),
    ("label selector Exists takes no values", [pod(anti({"topologyKey": "zone", "labelSelector": {
        "matchExpressions": [{"key": "app", "operator": "Exists", "values": ["x"]}]}}))],
     [f"Pod default/p: {ANTI}.labelSelector.matchExpressions[0].values: Forbidden: may not be specified "
      "when `operator` is 'Exists' or 'DoesNotExist'"]),
    ("anti-affinity topologyKey empty", [pod(anti({"topologyKey": ""}))],
     [f"Pod default/p: {ANTI}.topologyKey: Required value: can not be empty"]),
    ("anti-affinity topologyKey missing", [pod(anti({}))],
     [f"Pod default/p: {ANTI}.topologyKey: Required value"]),
    ("maxSkew must be positive", [pod(spread(maxSkew=0))],
     ["Pod default/p: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"]),
    ("whenUnsatisfiable", [pod(spread(whenUnsatisfiable="Sometimes"))],
     ['Pod default/p: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": '
      'supported values: "DoNotSchedule", "ScheduleAnyway"']),
    ("spread topologyKey empty", [pod(spread(topologyKey=""))],
     ["Pod default/p: spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty"]),
    ("duplicate spread constraint", [pod({"topologySpreadConstraints": [
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
        {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]})],
     ['Pod default/p: spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: '
      '"{zone, DoNotSchedule}"']),
    # v1.18's validateTopologySpreadConstraints does not check labelSelector: the pod is accepted,
    # and PodTopologySpread's PreFilter reports the selector error (lesson 15).
    ("spread labelSelector is not validated", [pod(spread(labelSelector={
        "matchExpressions": [{"key": "app", "operator": "In", "values": []}]}))], []),
    ("preemptionPolicy", [pod({"preemptionPolicy": "Sometimes"})],
     ['Pod default/p: spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: '
      '"PreemptLowerPriority", "Never"']),
    ("pvc claimName required", [pod({"volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": ""}}]})],
     ["Pod default/p: spec.volumes[0].persistentVolumeClaim.claimName: Required value"]),
    ("taint effect unsupported", [node(spec={"taints": [{"key": "k", "effect": "Foo"}]})],
     [f'Node n: spec.taints[0].effect: Unsupported value: "Foo": {EFFECTS}']),
    ("taint effect empty", [node(spec={"taints": [{"key": "k", "effect": ""}]})],
     ["Node n: spec.taints[0].effect: Required value"]),
    ("taint key", [node(spec={"taints": [{"key": "a/b/c", "effect": "NoSchedule"}]})],
     ["Node n: spec.taints[0].key: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric "
      "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
      "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
      "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]),
    ("duplicate taint", [node(spec={"taints": [{"key": "k", "effect": "NoSchedule"},
                                               {"key": "k", "value": "v", "effect": "NoSchedule"}]})],
     ['Node n: spec.taints[1]: Duplicate value: "k:NoSchedule": taints must be unique by key and effect pair']),
    ("node name", [node(name="Node_1")], [f'Node Node_1: metadata.name: Invalid value: "Node_1": {SUBDOMAIN}']),
]


@pytest.mark.parametrize("name,docs,want", CASES, ids=[c[0] for c in CASES])
def test_rule(name: str, docs: list[dict], want: list[str]) -> None:
    assert messages(*docs) == want


PC = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass"}
PVC = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data"},
       "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}
CLAIM = {"volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "data"}}]}
RS = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs"}}
TEMPLATE = {"metadata": {"labels": {"app": "a"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}

CLUSTER_CASES = [
    ("priority class declared", [{**PC, "metadata": {"name": "high"}, "value": 10},
                                 pod({"priorityClassName": "high"})], []),
    ("built-in priority class", [pod({"priorityClassName": "system-node-critical"})], []),
    ("priority class missing", [pod({"priorityClassName": "high"})],
     ['Pod default/p: spec.priorityClassName: Not found: "high": no PriorityClass with name high was found']),
    ("pvc present", [PVC, pod(CLAIM)], []),
    ("pvc missing loads: podPassesBasicChecks reports it when the pod is tried", [pod(CLAIM)], []),
    ("pvc in another namespace loads too", [PVC, pod(CLAIM, namespace="other")], []),
    ("template references checked", [{**RS, "spec": {"selector": {"matchLabels": {"app": "a"}}, "template": {
        **TEMPLATE, "spec": {"priorityClassName": "nope", "containers": [{"name": "c", "image": "i"}]}}}}],
     ['ReplicaSet default/rs: spec.template.spec.priorityClassName: Not found: "nope": no PriorityClass with '
      'name nope was found']),
    ("duplicate objects", [pod(), pod(namespace="default")],
     ['Pod default/p: metadata.name: Duplicate value: "p"']),
    ("same name, other namespace", [pod(), pod(namespace="kube-system")], []),
    ("same name, other kind", [node(name="p"), pod()], []),
    ("two global defaults", [{**PC, "metadata": {"name": "a"}, "value": 1, "globalDefault": True},
                             {**PC, "metadata": {"name": "b"}, "value": 2, "globalDefault": True}],
     ["PriorityClass b: globalDefault: Forbidden: only one PriorityClass can be marked as globalDefault"]),
    ("user priority too high", [{**PC, "metadata": {"name": "a"}, "value": 2000000000}],
     ["PriorityClass a: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]),
    ("reserved prefix", [{**PC, "metadata": {"name": "system-mine"}, "value": 1}],
     ["PriorityClass system-mine: metadata.name: Forbidden: priority class names with 'system-' prefix "
      "are reserved for system use only. error: system-mine is not a known system priority class"]),
    ("class preemptionPolicy", [{**PC, "metadata": {"name": "a"}, "value": 1, "preemptionPolicy": "No"}],
     ['PriorityClass a: preemptionPolicy: Unsupported value: "No": supported values: "PreemptLowerPriority", '
      '"Never"']),
    ("replicaset selector required", [{**RS, "spec": {"template": TEMPLATE}}],
     ["ReplicaSet default/rs: spec.selector: Required value"]),
    ("replicaset selector mismatch", [{**RS, "spec": {"selector": {"matchLabels": {"app": "b"}},
                                                      "template": TEMPLATE}}],
     ['ReplicaSet default/rs: spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: '
      '`selector` does not match template `labels`']),
    ("replicaset negative replicas", [{**RS, "spec": {"replicas": -1, "selector": {"matchLabels": {"app": "a"}},
                                                      "template": TEMPLATE}}],
     ["ReplicaSet default/rs: spec.replicas: Invalid value: -1: must be greater than or equal to 0"]),
    ("replicaset template required", [{**RS, "spec": {"selector": {"matchLabels": {"app": "a"}}}}],
     ["ReplicaSet default/rs: spec.template: Required value"]),
    ("pdb both set", [{"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget", "metadata": {"name": "b"},
                       "spec": {"minAvailable": 1, "maxUnavailable": "50%"}}],
     ['PodDisruptionBudget default/b: spec: Invalid value: "minAvailable=1, maxUnavailable=50%": minAvailable '
      'and maxUnavailable cannot be both set']),
    ("pdb bad percent", [{"apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget",
                          "metadata": {"name": "b"}, "spec": {"minAvailable": "half"}}],
     ["PodDisruptionBudget default/b: spec.minAvailable: Invalid value: \"half\": a valid percent string must "
      "be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is "
      "'[0-9]+%')"]),
]


@pytest.mark.parametrize("name,docs,want", CLUSTER_CASES, ids=[c[0] for c in CLUSTER_CASES])
def test_cluster_rule(name: str, docs: list[dict], want: list[str]) -> None:
    assert messages(*docs) == want


@pytest.mark.parametrize("value,errs", [
    ("example.com", 0), ("a", 0), ("a-b.c", 0), ("A", 1), ("-a", 1), ("a..b", 1), ("a" * 254, 1),
])
def test_dns1123_subdomain(value: str, errs: int) -> None:
    assert len(is_dns1123_subdomain(value)) == errs


@pytest.mark.parametrize("value,want", [
    ("app", []),
    ("example.com/app", []),
    ("Example.com/app", ["prefix part " + SUBDOMAIN]),
    ("/app", ["prefix part must be non-empty"]),
    ("a" * 64, ["name part must be no more than 63 characters"]),
    ("", ["name part must be non-empty", NAME_PART]),
])
def test_qualified_name(value: str, want: list[str]) -> None:
    assert is_qualified_name(value) == want


@pytest.mark.parametrize("value,ok", [("", True), ("MyValue", True), ("my_value", True), ("1.10", True),
                                      ("a b", False), ("x-", False), ("a" * 63, True), ("a" * 64, False)])
def test_label_value(value: str, ok: bool) -> None:
    assert (is_valid_label_value(value) == []) == ok
