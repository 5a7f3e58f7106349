"""VolumeZone plugin (upstream pkg/scheduler/framework/plugins/volumezone)."""
