"""client-go: the parts of staging/src/k8s.io/client-go the simulated scheduler uses.

Upstream: staging/src/k8s.io/client-go (tools/leaderelection). Informers live in
kubesched.sim.informers and the event recorder in kubesched.cluster.events.
"""
