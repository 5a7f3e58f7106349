"""``cmd/kube-scheduler/app``: NewSchedulerCommand, runCommand and Run on the simulated loop.

Upstream: cmd/kube-scheduler/app/server.go, app/options/options.go, app/config/config.go.
"""

from kubesched.cmd.app.config import CompletedConfig, Config
from kubesched.cmd.app.options import Options, new_options
from kubesched.cmd.app.server import (
    STARTUP_STEPS,
    SchedulerCommand,
    new_scheduler_command,
    run,
    run_command,
)

__all__ = ["STARTUP_STEPS", "CompletedConfig", "Config", "Options", "SchedulerCommand", "new_options",
           "new_scheduler_command", "run", "run_command"]
