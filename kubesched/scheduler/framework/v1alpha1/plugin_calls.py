"""What the framework's observer hears: its plugin calls, in batches read only when needed.

Upstream: no counterpart (framework.go runs the plugins and records metrics; the trace
wants every call). The framework hands its observer one batch per call at the points
that run each plugin once (PreFilter, Reserve, Permit …), one batch per node for Filter
and one per RunScorePlugins for Score and NormalizeScore. A batch holds the plain results
the runner had anyway; iterating it builds the ``PluginCall`` of each call, in call order.
So an observer that keeps a batch unread (the trace recorder) pays for a call only when
someone reads it. Batches are read-only by contract but not frozen dataclasses: a frozen
one costs several times more to create, and the framework makes one per node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Optional, Protocol, Sequence

from kubesched.scheduler.framework.v1alpha1.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Status

FILTER, SCORE, SCORE_EXTENSION_NORMALIZE = "Filter", "Score", "ScoreExtensionNormalize"


@dataclass(frozen=True, slots=True)
class PluginCall:
    """One plugin call, as the observer sees it (not upstream).

    ``node`` is the node name for per-node calls, else ""; ``score`` the raw score of a
    Score call, ``normalized_score``/``weighted_score`` its value after NormalizeScore and
    after × ``weight`` (Score and NormalizeScore calls carry the plugin's weight);
    ``scores`` the list after a NormalizeScore call; ``timeout`` the (capped) wait of a
    Permit call; ``profile`` the framework's profile (scheduler) name.
    """

    extension_point: str
    plugin: str
    pod: Any
    node: str = ""
    status: Optional[Status] = None
    score: Optional[int] = None
    scores: tuple[tuple[str, int], ...] = ()
    timeout: Optional[float] = None
    normalized_score: Optional[int] = None
    weight: Optional[int] = None
    weighted_score: Optional[int] = None
    profile: str = ""


class PluginCalls(Protocol):
    """A batch of calls about one pod in one profile: sized, and iterable in call order."""

    @property
    def pod(self) -> Any: ...

    @property
    def profile(self) -> str: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[PluginCall]: ...


class PluginObserver(Protocol):
    def __call__(self, calls: PluginCalls) -> None: ...


@dataclass(slots=True)
class OneCall:
    """A batch of one call."""

    call: PluginCall

    @property
    def pod(self) -> Any:
        return self.call.pod

    @property
    def profile(self) -> str:
        return self.call.profile

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Iterator[PluginCall]:
        yield self.call


@dataclass(slots=True)
class FilterCalls:
    """One node's Filter calls: the first ``count`` of ``plugins``, each a Success unless in ``failures``.

    (Plugins that promised Success were not called; they stand among the others as they
    would have run.)
    """

    pod: Any
    profile: str
    node: str
    plugins: Sequence[str]
    failures: Mapping[str, Status]
    count: int

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[PluginCall]:
        pod, node, profile, failures = self.pod, self.node, self.profile, self.failures
        for plugin in self.plugins[:self.count]:
            yield PluginCall(FILTER, plugin, pod, node, failures.get(plugin), profile=profile)


@dataclass(slots=True)
class ScoreCalls:
    """One RunScorePlugins: ``count`` Score calls node-major, then the NormalizeScore calls.

    ``raw[p][i]`` is plugin ``p``'s score for ``nodes[i]``; ``failed`` the (score, status)
    of the last Score call when it failed and ended the scoring; ``normalize`` the (plugin
    index, status) of each NormalizeScore call; ``after_normalize`` every plugin's scores
    once NormalizeScore was over (None if it never ran); ``normalized`` True when it
    succeeded, so the Score calls carry normalized and weighted scores.
    """

    pod: Any
    profile: str
    nodes: Sequence[str]
    plugins: Sequence[str]
    weights: Sequence[Optional[int]]
    raw: Sequence[Sequence[int]]
    count: int
    failed: Optional[tuple[int, Status]] = None
    normalize: Sequence[tuple[int, Optional[Status]]] = ()
    after_normalize: Optional[Sequence[Sequence[int]]] = None
    normalized: bool = False

    def __len__(self) -> int:
        return self.count + len(self.normalize)

    def __iter__(self) -> Iterator[PluginCall]:
        yield from self.score_calls()
        pod, profile, weights, after = self.pod, self.profile, self.weights, self.after_normalize
        for index, status in self.normalize:
            scores = tuple(zip(self.nodes, after[index])) if after is not None else ()
            yield PluginCall(SCORE_EXTENSION_NORMALIZE, self.plugins[index], pod, "", status, scores=scores,
                             weight=weights[index], profile=profile)

    def score_calls(self) -> Iterator[PluginCall]:
        """The Score calls alone, node-major."""
        pod, profile, plugins, weights, count = self.pod, self.profile, self.plugins, self.weights, self.count
        normalized = self.after_normalize if self.normalized else None
        for n in range(count):
            i, p = divmod(n, len(plugins))
            if self.failed is not None and n == count - 1:
                raw, status = self.failed
            else:
                raw, status = self.raw[p][i], None
            norm = normalized[p][i] if normalized is not None else None
            weight = weights[p]
            weighted = (norm * weight if norm is not None and weight is not None
                        and MIN_NODE_SCORE <= norm <= MAX_NODE_SCORE else None)
            yield PluginCall(SCORE, plugins[p], pod, self.nodes[i], status, score=raw, normalized_score=norm,
                             weight=weight, weighted_score=weighted, profile=profile)
