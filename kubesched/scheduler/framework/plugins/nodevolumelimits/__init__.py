"""Node volume limit plugins: NodeVolumeLimits (CSI) and EBS/GCEPD/AzureDisk/Cinder limits.

Upstream: pkg/scheduler/framework/plugins/nodevolumelimits (csi.go, non_csi.go, utils.go).
"""
