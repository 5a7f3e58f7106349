"""Which volume a claim gets: the smallest fitting one among the volumes with the fewest access modes.

Upstream: pkg/controller/volume/persistentvolume/index.go @ v1.18.5
(persistentVolumeOrderedIndex.findByClaim, findBestMatchForClaim,
allPossibleMatchingAccessModes, byAccessModes, accessModesIndexFunc) with
pkg/apis/core/v1/helper/helpers.go (GetAccessModesAsString, GetAccessModesFromString),
pkg/volume/util/util.go (AccessModesContainedInAll) and
persistentvolume/util.FindMatchingVolume (kubesched.controller.volume.scheduling.pv_util).

Volumes are grouped by their access modes (``RWO``, ``RWO,ROX`` …). The groups that hold
every mode the claim asks for are searched with the fewest modes first, and the first group
with a match wins: a claim for ReadWriteOnce gets a ReadWriteOnce volume before a larger
group's smaller one. Inside a group ``FindMatchingVolume`` returns a volume pre-bound to the
claim, else the smallest available volume of the claim's class whose capacity, selector and
volumeMode fit (with ``delayBinding`` only pre-bound volumes: the scheduler picks the rest).

Deviation: groups with the same number of modes are searched in the order of their mode
string (upstream: Go map order); inside a group volumes come in name order.
"""

from __future__ import annotations

from typing import Final, Iterable, Optional

from kubesched.api.core import PersistentVolume, PersistentVolumeClaim
from kubesched.controller.volume.scheduling import pv_util

_MODE_SHORT: Final = (("ReadWriteOnce", "RWO"), ("ReadOnlyMany", "ROX"), ("ReadWriteMany", "RWX"))


def access_modes_as_string(modes: Iterable[str]) -> str:
    """``GetAccessModesAsString``: ``RWO,ROX,RWX`` in that order, unknown modes dropped."""
    present = set(modes)
    return ",".join(short for mode, short in _MODE_SHORT if mode in present)


def access_modes_from_string(text: str) -> frozenset[str]:
    """``GetAccessModesFromString``."""
    parts = set(text.split(","))
    return frozenset(mode for mode, short in _MODE_SHORT if short in parts)


def find_best_match_for_claim(claim: PersistentVolumeClaim, volumes: Iterable[PersistentVolume],
                              delay_binding: bool) -> Optional[PersistentVolume]:
    """``findBestMatchForClaim``; raises ValueError when the claim's selector is invalid."""
    groups: dict[str, list[PersistentVolume]] = {}
    for volume in volumes:
        groups.setdefault(access_modes_as_string(volume.spec.access_modes), []).append(volume)
    requested = set(claim.spec.access_modes)
    keys = [k for k in groups if requested <= access_modes_from_string(k)]
    for key in sorted(keys, key=lambda k: (len(access_modes_from_string(k)), k)):
        best = pv_util.find_matching_volume(claim, groups[key], None, {}, delay_binding)
        if best is not None:
            return best
    return None
