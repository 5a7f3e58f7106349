"""VolumeBinding plugin (upstream pkg/scheduler/framework/plugins/volumebinding)."""
