"""The PersistentVolume controller: binds claims to volumes and provisions them.

Upstream: pkg/controller/volume/persistentvolume @ v1.18.5 (pv_controller.go,
pv_controller_base.go, index.go); its util package is shared with the scheduler's
binder in kubesched.controller.volume.scheduling.pv_util.
"""
