"""The scheduler's volume binder library.

Upstream: pkg/controller/volume/scheduling (scheduler_binder.go, scheduler_binder_cache.go,
scheduler_assume_cache.go, scheduler_binder_fake.go) @ v1.18.5, plus the small helpers it
leans on (persistentvolume/util, pkg/volume/util, csi-translation-lib) re-expressed here.
"""
