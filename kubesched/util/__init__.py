"""The runtime the engine stands on: simulated time and the one event loop.

Upstream: staging/src/k8s.io/apimachinery/pkg/util (``clock``, ``wait``) and the Go runtime's
goroutines and timers, which the single ``EventLoop`` replaces. The lowest layer: it imports
nothing else of kubesched.
"""
