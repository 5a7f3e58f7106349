"""The scheduler's component configuration, ``kubescheduler.config.k8s.io/v1alpha2``.

Upstream: pkg/scheduler/apis/config (types.go, v1alpha2/defaults.go, v1alpha2/conversion.go,
validation/validation.go, scheme/scheme.go).

Modules: ``types`` (internal dataclasses, plugin-set merge), ``v1alpha2`` (strict decoding),
``defaults`` (defaulting and conversion), ``validation`` (v1.18.5 messages), ``scheme``
(``load_config``), ``go_format`` (Go durations and addresses). Nothing here imports the
framework, so the framework can import these types.
"""

from kubesched.scheduler.apis.config.scheme import (
    ConfigError,
    ConfigProblem,
    default_config,
    load_config,
)
from kubesched.scheduler.apis.config.types import (
    ClientConnectionConfiguration,
    Extender,
    ExtenderManagedResource,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    LeaderElectionConfiguration,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
    SchedulerAlgorithmSource,
    merge_plugin_sets,
)
from kubesched.scheduler.apis.config.validation import (
    validate_kube_scheduler_configuration,
)

__all__ = [
    "ClientConnectionConfiguration", "ConfigError", "ConfigProblem", "Extender", "ExtenderManagedResource",
    "KubeSchedulerConfiguration", "KubeSchedulerProfile", "LeaderElectionConfiguration", "Plugin",
    "PluginConfig", "PluginSet", "Plugins", "SchedulerAlgorithmSource", "default_config", "load_config",
    "merge_plugin_sets", "validate_kube_scheduler_configuration",
]
