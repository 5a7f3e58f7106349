"""Scheduling profiles: one framework and one event recorder per scheduler name.

Upstream: pkg/scheduler/profile. ``profile`` holds Profile/Map/new_map; ``frameworks``
(provider merge and ``build_frameworks``) is imported from its module.
"""

from kubesched.scheduler.profile.profile import (
    Map,
    Profile,
    ProfileError,
    handles_scheduler_name,
    new_map,
    new_profile,
)

__all__ = ["Map", "Profile", "ProfileError", "handles_scheduler_name", "new_map", "new_profile"]
