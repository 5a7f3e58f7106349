"""VolumeRestrictions plugin (upstream pkg/scheduler/framework/plugins/volumerestrictions)."""
