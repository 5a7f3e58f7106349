"""client-go listers: read access to the objects informers keep.

Upstream: staging/src/k8s.io/client-go/listers (the listers plugins get from the
``SharedInformerFactory``).
"""

from kubesched.client.listers.informer_listers import InformerListers

__all__ = ["InformerListers"]
