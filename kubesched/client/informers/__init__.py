"""client-go informers: watch events delivered to the scheduler's handlers on the loop.

Upstream: staging/src/k8s.io/client-go/informers and tools/cache.
"""

from kubesched.client.informers.factory import LIST_ORDER, LISTER_KINDS, InformerFactory
from kubesched.client.informers.shared_informer import (
    INFORMER_PRIORITY,
    FilteringResourceEventHandler,
    ResourceEventHandler,
    ResourceEventHandlerFuncs,
    SharedInformer,
)

__all__ = ["INFORMER_PRIORITY", "LIST_ORDER", "LISTER_KINDS", "FilteringResourceEventHandler", "InformerFactory",
           "ResourceEventHandler", "ResourceEventHandlerFuncs", "SharedInformer"]
