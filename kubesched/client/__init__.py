"""client-go: the parts of staging/src/k8s.io/client-go the simulated scheduler uses.

Upstream: staging/src/k8s.io/client-go: ``informers`` and ``tools/cache`` (kubesched.client.informers),
``listers`` (kubesched.client.listers), ``tools/leaderelection``. The event recorder lives in
kubesched.cluster.events.
"""
