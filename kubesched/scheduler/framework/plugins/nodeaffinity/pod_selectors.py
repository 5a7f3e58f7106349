"""A pod's node selectors, built once and matched against every node (NodeAffinity's hot path).

Upstream: pkg/scheduler/framework/plugins/helper/node_affinity.go
(PodMatchesNodeSelectorAndAffinityTerms, nodeMatchesNodeSelectorTerms),
pkg/apis/core/v1/helper/helpers.go (MatchNodeSelectorTerms) and the selector building of
nodeaffinity/node_affinity.go (Score).

Upstream rebuilds the selectors for every node. Pods are immutable, so building them
once per pod gives the same verdicts: a required term that is empty or fails to build
never matches; a weighted preferred term that fails to build makes Score fail with its
error, whatever the node (terms of weight 0 are never built). Only the last pod asked
about is kept, by each NodeAffinity instance (a pod is filtered and scored on every node in a row).
"""

from __future__ import annotations

from typing import Final, Optional

from kubesched.api import v1helper
from kubesched.api.core import Node, NodeSelectorTerm, Pod
from kubesched.api.labels import Selector, SelectorError
from kubesched.scheduler.framework.plugins.helper.node_affinity import selector_from_set

_NAME_FIELD: Final = v1helper.NODE_FIELD_SELECTOR_KEY_NODE_NAME

# (label selector or None, field selector or None) of a required term that built
_Term = tuple[Optional[Selector], Optional[v1helper.FieldSelector]]


class PodSelectors:
    """The selectors of one pod: nodeSelector, required terms, weighted preferred terms."""

    __slots__ = ("pod", "node_selector", "required_terms", "preferred", "preferred_error")

    def __init__(self, pod: Pod) -> None:
        self.pod = pod
        spec = pod.spec
        self.node_selector: Optional[Selector] = selector_from_set(spec.node_selector) if spec.node_selector else None
        self.required_terms: Optional[tuple[_Term, ...]] = None  # None: every node passes
        self.preferred: tuple[tuple[int, Selector], ...] = ()
        self.preferred_error: Optional[str] = None
        node_affinity = spec.affinity.node_affinity if spec.affinity is not None else None
        if node_affinity is None:
            return
        required = node_affinity.required_during_scheduling_ignored_during_execution
        if required is not None:
            built = (_build_term(t) for t in required.node_selector_terms)
            self.required_terms = tuple(t for t in built if t is not None)
        preferred = []
        for term in node_affinity.preferred_during_scheduling_ignored_during_execution:
            if term.weight == 0:
                continue
            try:
                preferred.append((term.weight, v1helper.node_selector_requirements_as_selector(
                    term.preference.match_expressions)))
            except SelectorError as err:
                self.preferred_error = str(err)
                break
        self.preferred = tuple(preferred)

    def matches(self, node: Node) -> bool:
        """``PodMatchesNodeSelectorAndAffinityTerms(pod, node)``."""
        labels = node.metadata.labels
        if self.node_selector is not None and not self.node_selector.matches(labels):
            return False
        terms = self.required_terms
        if terms is None:
            return True
        for label_selector, field_selector in terms:
            if label_selector is not None and not label_selector.matches(labels):
                continue
            if field_selector is not None and not field_selector({_NAME_FIELD: node.metadata.name}):
                continue
            return True
        return False

    def preferred_score(self, node: Node) -> int:
        """The sum of the weights of the preferred terms matching the node; raises SelectorError."""
        if self.preferred_error is not None:
            raise SelectorError(self.preferred_error)
        labels = node.metadata.labels
        count = 0
        for weight, selector in self.preferred:
            if selector.matches(labels):
                count += weight
        return count


def _build_term(term: NodeSelectorTerm) -> Optional[_Term]:
    """A term as MatchNodeSelectorTerms builds it; None for a term that can never match."""
    if not term.match_expressions and not term.match_fields:
        return None
    try:
        label_selector = v1helper.node_selector_requirements_as_selector(term.match_expressions) \
            if term.match_expressions else None
        field_selector = v1helper.node_selector_requirements_as_field_selector(term.match_fields) \
            if term.match_fields else None
    except SelectorError:
        return None
    return label_selector, field_selector


class LastPodSelectors:
    """The selectors of the last pod asked about, rebuilt only for a different pod object
    (one per plugin instance)."""

    __slots__ = ("selectors",)

    def __init__(self) -> None:
        self.selectors: Optional[PodSelectors] = None

    def of(self, pod: Pod) -> PodSelectors:
        selectors = self.selectors
        if selectors is None or selectors.pod is not pod:
            selectors = self.selectors = PodSelectors(pod)
        return selectors
