"""The runtime the engine stands on: simulated time, the one event loop, Go's string quoting.

Upstream: staging/src/k8s.io/apimachinery/pkg/util (``clock``, ``wait``) and the Go runtime's
goroutines and timers, which the single ``EventLoop`` replaces; Go's ``strconv.Quote``. The
lowest layer: it imports nothing else of kubesched.
"""
