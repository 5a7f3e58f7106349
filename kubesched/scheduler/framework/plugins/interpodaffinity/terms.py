"""InterPodAffinity's processed terms, and the memo of them each plugin instance keeps.

Upstream: pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (affinityTerm,
newAffinityTerm, getAffinityTerms) and scoring.go (weightedAffinityTerm,
newWeightedAffinityTerm, getWeightedAffinityTerms).

Not upstream: every scheduling cycle parses the same label selectors and processes the same
existing pods' terms again. The answers are pure functions of immutable objects (a
LabelSelector; a pod's terms tuple with the pod's namespace), so ``TermMemo`` remembers them
by the object's identity, holding the object so the identity stays unique; errors are not
remembered (they raise again), nor are terms given as a list. Each InterPodAffinity instance
(so each scheduler of each run) has its own memo, bounded by ``MEMO_LIMIT`` entries per kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Optional

from kubesched.api.core import Pod, PodAffinityTerm, WeightedPodAffinityTerm
from kubesched.api.labels import Selector, label_selector_as_selector
from kubesched.api.meta import LabelSelector
from kubesched.scheduler.util.topologies import get_namespaces_from_pod_affinity_term

MEMO_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class AffinityTerm:
    """A processed ``v1.PodAffinityTerm``: namespaces, parsed selector, topology key."""

    namespaces: frozenset[str]
    selector: Selector
    topology_key: str


@dataclass(frozen=True, slots=True)
class WeightedAffinityTerm:
    """A processed ``v1.WeightedPodAffinityTerm``."""

    namespaces: frozenset[str]
    selector: Selector
    topology_key: str
    weight: int


class IdentityMemo:
    """Values computed from immutable objects, found by a key holding the object's id; cleared
    when ``limit`` entries are held."""

    __slots__ = ("entries", "limit")

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.entries: dict[Hashable, tuple[Any, Any]] = {}
        self.limit = limit

    def get(self, key: Hashable, obj: Any) -> Any:
        """The value remembered for ``obj`` under ``key``, else None."""
        entry = self.entries.get(key)
        return entry[1] if entry is not None and entry[0] is obj else None

    def put(self, key: Hashable, obj: Any, value: Any) -> None:
        if len(self.entries) >= self.limit:
            self.entries.clear()
        self.entries[key] = (obj, value)  # holding obj keeps its id unique


class TermMemo:
    """Parses selectors and processes terms, remembering what an immutable object answers."""

    __slots__ = ("selectors", "required", "weighted")

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.selectors = IdentityMemo(limit)
        self.required = IdentityMemo(limit)
        self.weighted = IdentityMemo(limit)

    def selector(self, label_selector: Optional[LabelSelector]) -> Selector:
        """``label_selector_as_selector``; raises SelectorError for an invalid selector."""
        if label_selector is None:
            return label_selector_as_selector(None)
        selector = self.selectors.get(id(label_selector), label_selector)
        if selector is None:
            selector = label_selector_as_selector(label_selector)
            self.selectors.put(id(label_selector), label_selector, selector)
        return selector

    def affinity_terms(self, pod: Pod, v1_terms: Iterable[PodAffinityTerm]) -> list[AffinityTerm]:
        """Upstream: getAffinityTerms. Raises SelectorError for an invalid label selector."""
        return [AffinityTerm(get_namespaces_from_pod_affinity_term(pod, term),
                             self.selector(term.label_selector), term.topology_key)
                for term in v1_terms]

    def existing_affinity_terms(self, pod: Pod, v1_terms: tuple) -> tuple[AffinityTerm, ...]:
        """``affinity_terms`` of an existing pod's required terms, remembered per terms tuple and
        namespace. Raises SelectorError likewise."""
        if not v1_terms:
            return ()
        key = (id(v1_terms), pod.metadata.namespace)
        processed = self.required.get(key, v1_terms)
        if processed is None:
            processed = tuple(self.affinity_terms(pod, v1_terms))
            if isinstance(v1_terms, tuple):  # only an immutable tuple may be remembered
                self.required.put(key, v1_terms, processed)
        return processed

    def weighted_term(self, pod: Pod, term: PodAffinityTerm, weight: int) -> WeightedAffinityTerm:
        """Upstream: newWeightedAffinityTerm. Raises SelectorError for an invalid label selector."""
        return WeightedAffinityTerm(get_namespaces_from_pod_affinity_term(pod, term),
                                    self.selector(term.label_selector), term.topology_key, weight)

    def weighted_terms(self, pod: Pod, terms: Iterable[WeightedPodAffinityTerm]) -> list[WeightedAffinityTerm]:
        """Upstream: getWeightedAffinityTerms."""
        return [self.weighted_term(pod, t.pod_affinity_term, t.weight) for t in terms]

    def existing_weighted_terms(self, pod: Pod, terms: tuple,
                                hard_weight: Optional[int] = None) -> tuple[WeightedAffinityTerm, ...]:
        """An existing pod's processed terms: its preferred ones (``hard_weight`` None), or its
        required ones weighted ``hard_weight``; remembered per terms tuple, namespace and weight.
        Raises SelectorError for an invalid selector."""
        if not terms:
            return ()
        key = (id(terms), pod.metadata.namespace, hard_weight)
        processed = self.weighted.get(key, terms)
        if processed is None:
            if hard_weight is None:
                processed = tuple(self.weighted_term(pod, t.pod_affinity_term, t.weight) for t in terms)
            else:
                processed = tuple(self.weighted_term(pod, t, hard_weight) for t in terms)
            if isinstance(terms, tuple):  # only an immutable tuple may be remembered
                self.weighted.put(key, terms, processed)
        return processed
