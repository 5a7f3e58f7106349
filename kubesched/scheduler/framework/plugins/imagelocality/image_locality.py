"""ImageLocality: prefer nodes that already hold the pod's container images.

Upstream: pkg/scheduler/framework/plugins/imagelocality/image_locality.go
(ImageLocality.Name, Score, ScoreExtensions, New, calculatePriority, sumImageScores,
scaledImageScore, normalizedImageName).

Each image counts its size scaled by the share of nodes that hold it (to avoid piling
pods onto the few nodes that pulled an image first); the sum is mapped linearly from
[23 MiB, 1000 MiB] onto [0, 100]. Init containers are ignored, as upstream.
"""

from __future__ import annotations

from typing import Final, Optional, Sequence

from kubesched.api.core import Container, Node, Pod
from kubesched.scheduler.framework.plugins.helper.snapshot import get_node_info, lookup_error, node_infos_of
from kubesched.scheduler.framework.v1alpha1.cycle_state import CycleState
from kubesched.scheduler.framework.v1alpha1.interface import (
    MAX_NODE_SCORE, Code, ScorePlugin, PreScoreSkip, Status)
from kubesched.scheduler.nodeinfo.node_info import ImageStateSummary, NodeInfo

NAME: Final = "ImageLocality"
MB: Final = 1024 * 1024
MIN_THRESHOLD: Final = 23 * MB
MAX_THRESHOLD: Final = 1000 * MB
DEFAULT_IMAGE_TAG: Final = "latest"  # pkg/util/parsers.DefaultImageTag


class ImageLocality:
    """Score-only plugin (no NormalizeScore in v1.18)."""

    def __init__(self, node_infos: object) -> None:
        self.node_infos = node_infos
        self.image_names = LastImageNames()

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """Upstream: (*ImageLocality).Score."""
        node_info = get_node_info(self.node_infos, node_name)
        if node_info is None:
            return 0, Status(Code.ERROR, (lookup_error(self.node_infos, node_name),))
        if not node_info.image_states:
            return 0, None  # calculate_priority(0): below the threshold
        total_num_nodes = len(self.node_infos.list())
        names = self.image_names.of(pod.spec.containers)
        return calculate_priority(sum_image_scores(node_info, names, total_num_nodes)), None

    def constant_score(self, state: CycleState, pod: Pod, nodes: list[Node]) -> Optional[int]:
        """Not upstream (PreScoreSkip): the score every node shares (0 when no node reports
        images, the usual case); None when they differ."""
        lister = self.node_infos
        total_num_nodes = len(lister.list())
        names = self.image_names.of(pod.spec.containers)
        get = lister.get
        constant: Optional[int] = None
        for node in nodes:
            node_info = get(node.metadata.name)
            score = 0
            if node_info.image_states:
                score = calculate_priority(sum_image_scores(node_info, names, total_num_nodes))
            if constant is None:
                constant = score
            elif score != constant:
                return None
        return constant

    def score_extensions(self) -> None:
        return None


def calculate_priority(sum_scores: int) -> int:
    """Upstream: calculatePriority. Clamp to the thresholds, then scale to [0, MaxNodeScore]."""
    sum_scores = min(max(sum_scores, MIN_THRESHOLD), MAX_THRESHOLD)
    return MAX_NODE_SCORE * (sum_scores - MIN_THRESHOLD) // (MAX_THRESHOLD - MIN_THRESHOLD)


def sum_image_scores(node_info: NodeInfo, image_names: Sequence[str], total_num_nodes: int) -> int:
    """Upstream: sumImageScores, given the normalized image names of the regular containers."""
    states = node_info.image_states
    if not states:
        return 0
    total = 0
    for name in image_names:
        state = states.get(name)
        if state is not None:
            total += scaled_image_score(state, total_num_nodes)
    return total


class LastImageNames:
    """The normalized image names of the last container tuple asked about (a pod is scored on
    every node in a row); one per plugin instance."""

    __slots__ = ("containers", "names")

    def __init__(self) -> None:
        self.containers: Optional[Sequence[Container]] = None
        self.names: tuple[str, ...] = ()

    def of(self, containers: Sequence[Container]) -> tuple[str, ...]:
        if not isinstance(containers, tuple):  # only an immutable tuple may be remembered
            return tuple(normalized_image_name(c.image) for c in containers)
        if self.containers is not containers:
            self.containers, self.names = containers, tuple(normalized_image_name(c.image) for c in containers)
        return self.names


def scaled_image_score(image_state: ImageStateSummary, total_num_nodes: int) -> int:
    """Upstream: scaledImageScore. float64 arithmetic, truncated toward zero as Go's int64()."""
    spread = float(image_state.num_nodes) / float(total_num_nodes)
    return int(float(image_state.size) * spread)


def normalized_image_name(name: str) -> str:
    """Upstream: normalizedImageName. Append ``:latest`` when the name carries no tag."""
    if name.rfind(":") <= name.rfind("/"):
        name = name + ":" + DEFAULT_IMAGE_TAG
    return name


def new(args: dict | None, handle: object) -> ImageLocality:
    """Upstream: New (no args)."""
    return ImageLocality(node_infos_of(handle))


_s: ScorePlugin = ImageLocality(None)
_ss: PreScoreSkip = ImageLocality(None)
