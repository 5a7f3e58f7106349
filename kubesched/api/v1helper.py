"""Helpers over core/v1 types that the scheduler uses: resource name classes.

Upstream: pkg/apis/core/v1/helper/helpers.go (IsExtendedResourceName, IsNativeResource,
IsHugePageResourceName, IsPrefixedNativeResource, IsAttachableVolumeResourceName,
IsScalarResourceName).
"""

from __future__ import annotations

import re

RESOURCE_CPU = "cpu"
RESOURCE_MEMORY = "memory"
RESOURCE_PODS = "pods"
RESOURCE_EPHEMERAL_STORAGE = "ephemeral-storage"
DEFAULT_RESOURCE_REQUESTS_PREFIX = "requests."
RESOURCE_DEFAULT_NAMESPACE_PREFIX = "kubernetes.io/"
HUGE_PAGES_PREFIX = "hugepages-"
ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-"

_NAME_PART = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def is_qualified_name(value: str) -> bool:
    """``validation.IsQualifiedName``: ``[prefix/]name`` with a DNS-1123 subdomain prefix."""
    parts = value.split("/")
    if len(parts) == 2:
        prefix, name = parts
        if not prefix or len(prefix) > 253 or not _DNS_SUBDOMAIN.match(prefix):
            return False
    elif len(parts) == 1:
        name = parts[0]
    else:
        return False
    return 0 < len(name) <= 63 and bool(_NAME_PART.match(name))


def is_native_resource(name: str) -> bool:
    return "/" not in name or RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


def is_extended_resource_name(name: str) -> bool:
    if is_native_resource(name) or name.startswith(DEFAULT_RESOURCE_REQUESTS_PREFIX):
        return False
    return is_qualified_name(DEFAULT_RESOURCE_REQUESTS_PREFIX + name)


def is_huge_page_resource_name(name: str) -> bool:
    return name.startswith(HUGE_PAGES_PREFIX)


def is_prefixed_native_resource(name: str) -> bool:
    return RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


def is_attachable_volume_resource_name(name: str) -> bool:
    return name.startswith(ATTACHABLE_VOLUMES_PREFIX)


def is_scalar_resource_name(name: str) -> bool:
    return (is_extended_resource_name(name) or is_huge_page_resource_name(name)
            or is_prefixed_native_resource(name) or is_attachable_volume_resource_name(name))
