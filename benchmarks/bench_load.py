"""Time loading a large generated cluster (YAML text → validated, defaulted objects).

Prints documents per second for the strict loader, the path every edit in the dashboard takes.
"""

from __future__ import annotations

import argparse
import time

from kubesched.api.load import load_cluster


def cluster_yaml(nodes: int, pods: int) -> str:
    docs = []
    for i in range(nodes):
        zone = "abc"[i % 3]
        docs.append(f"""apiVersion: v1
kind: Node
metadata:
  name: zone-{zone}-node-{i}
  labels: {{topology.kubernetes.io/zone: zone-{zone}, kubernetes.io/hostname: zone-{zone}-node-{i}}}
status:
  capacity: {{cpu: "4", memory: 16Gi, pods: "110"}}
""")
    for i in range(pods):
        docs.append(f"""apiVersion: v1
kind: Pod
metadata: {{name: pod-{i}, labels: {{app: app-{i % 50}}}}}
spec:
  containers:
  - name: main
    image: nginx:1.19
    resources: {{requests: {{cpu: 100m, memory: 128Mi}}}}
""")
    return "---\n".join(docs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--pods", type=int, default=2000)
    args = parser.parse_args()
    text = cluster_yaml(args.nodes, args.pods)
    start = time.perf_counter()
    cluster = load_cluster(text, filename="generated.yaml")
    elapsed = time.perf_counter() - start
    docs = args.nodes + args.pods
    print(f"loaded {len(cluster.objects)} objects from {docs} documents ({len(text) / 2**20:.1f} MiB) "
          f"in {elapsed:.2f} s: {docs / elapsed:,.0f} documents/s")


if __name__ == "__main__":
    main()
