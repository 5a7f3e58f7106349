"""Deterministic stand-ins for the API server's random name suffixes.

Upstream: staging/src/k8s.io/apiserver/pkg/storage/names/generate.go
(SimpleNameGenerator.GenerateName: base + 5 random characters) and
staging/src/k8s.io/apimachinery/pkg/util/rand/rand.go (String, SafeEncodeString,
the alphabet without vowels and look-alike characters).

Deviation: upstream draws the suffix at random; here it is a stable hash of a
seed string, so the same cluster always gets the same names.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Final

ALPHANUMS: Final = "bcdfghjklmnpqrstvwxz2456789"
"""``rand.alphanums``: no vowels (no accidental words), no 0/1/3 look-alikes."""
RANDOM_LENGTH: Final = 5
MAX_NAME_LENGTH: Final = 63
MAX_GENERATED_NAME_LENGTH: Final = MAX_NAME_LENGTH - RANDOM_LENGTH
_UID_NAMESPACE: Final = uuid.UUID("6f0e5b2c-6a49-4c4e-9d1e-6b7562657363")


def stable_int(seed: str) -> int:
    """A 64-bit integer that depends only on ``seed``."""
    return int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:8], "big")


def stable_string(seed: str, length: int = RANDOM_LENGTH) -> str:
    """``rand.String(length)`` drawn from ``seed`` instead of a random source."""
    value, out = stable_int(seed), []
    for _ in range(length):
        value, index = divmod(value, len(ALPHANUMS))
        out.append(ALPHANUMS[index])
    return "".join(out)


def generate_name(base: str, seed: str) -> str:
    """``SimpleNameGenerator.GenerateName``: truncate ``base``, add 5 characters."""
    return base[:MAX_GENERATED_NAME_LENGTH] + stable_string(seed)


def safe_encode_string(text: str) -> str:
    """``rand.SafeEncodeString``: map each byte onto the safe alphabet."""
    return "".join(ALPHANUMS[ord(ch) % len(ALPHANUMS)] for ch in text)


def object_uid(kind: str, namespace: str, name: str) -> str:
    """A UUID-formatted UID that is a stable hash of kind/namespace/name."""
    return str(uuid.uuid5(_UID_NAMESPACE, f"{kind}/{namespace}/{name}"))
