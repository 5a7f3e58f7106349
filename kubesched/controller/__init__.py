"""Controller-side libraries the scheduler uses (upstream pkg/controller)."""
