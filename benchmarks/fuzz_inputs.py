"""Fuzz and abuse the input door: generated clusters and scenarios, bombs, extender URLs, worst files.

Prints, per section: cases, crashes (an exception other than a loader error, or an "internal
error" problem), hangs (a case over --hang seconds), unclear messages (a problem line that does not
name ``file:line:``, spans lines, or shows a Python exception name), and the time and peak RSS of
every bomb and of the worst files the limits let through (each in a fresh interpreter).

    .venv/bin/python benchmarks/fuzz_inputs.py                 # about 5 minutes
    .venv/bin/python benchmarks/fuzz_inputs.py --cases 200     # a quick look

Bounded: --cases mutated inputs per section, a per-case alarm (--hang), bombs and worst files with
a timeout each. Seeded (--seed): the same run gives the same cases.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kubesched.scheduler.core.extender_policy import LOOPBACK_ONLY  # noqa: E402
from kubesched.scheduler.core.extender_transport import TransportError, request_uri  # noqa: E402
from kubesched.sim import Simulation  # noqa: E402
from kubesched.sim.inputs import INPUT_ERRORS  # noqa: E402
from kubesched.sim.limits import DASHBOARD  # noqa: E402

SAMPLES = sorted((ROOT / "sample_clusters").rglob("*.yaml"))
LINE = re.compile(r"^[^\n]+:\d+: \S")
PYTHON_NAMES = re.compile(r"\b(Traceback|[A-Z][a-z]+Error|KeyError|AttributeError|TypeError|IndexError)\b")
SCALARS = ["0", "-1", "1e400", "1" + "0" * 400, ".nan", ".inf", "yes", "no", "~", "''", "'x'", '"\\u2028"', "0x1F",
           "2020-01-01", "[]", "{}", "[1, [2]]", "*a", "&a x", "!!binary aGk=", "!!python/object:os.system x",
           "<b>x</b>", "\u202e", "a\u2028b", "'" + "x" * 300 + "'", "{at: 1}", "- x"]
SCENARIO = textwrap.dedent("""\
    ---
    apiVersion: kubesched/v1alpha1
    kind: Scenario
    spec:
      seed: 1
      actions:
      - {at: 5, cordon: node-a}
      - {at: 10, create: {apiVersion: v1, kind: Node, metadata: {name: n9}, status: {capacity: {cpu: '1'}}}}
      - {at: 12, delete: {kind: Pod, namespace: default, name: web-1}}
      - {at: 20, killLeader: true}
    """)


class Hang(Exception):
    pass


def _alarm(_signum, _frame):
    raise Hang


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of the kinds a careless or hostile learner makes."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.randrange(9)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2 and ":" in lines[i]:
            key = lines[i].split(":", 1)[0]
            lines[i] = f"{key}: {rng.choice(SCALARS)}"
        elif kind == 3:
            lines[i] = " " * rng.randint(0, 3) + lines[i].lstrip()
        elif kind == 4:
            cut = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + rng.choice([":", "-", "[", "{", "'", '"', "#", "&", "*", "|", ">", "\t"]) + \
                lines[i][cut:]
        elif kind == 5:
            lines.insert(i, rng.choice(["---", "...", "%YAML 1.1", "- x", "? x", "<<: {a: 1}"]))
        elif kind == 6:
            lines[i] = lines[i].replace("at: ", f"at: {rng.choice(SCALARS)}, at2: ", 1) if "at:" in lines[i] else lines[i]
        elif kind == 7 and ":" in lines[i]:
            lines.insert(i + 1, lines[i])  # a duplicate key
        else:
            lines[i] = lines[i][::-1] if rng.random() < 0.2 else lines[i].upper()
    text = "\n".join(lines)
    roll = rng.random()
    return text.replace("\n", "\r") if roll < 0.05 else text.replace("\n", "\u2028") if roll < 0.1 else text


def classify(text: str, hang: float, limits) -> tuple[str, str]:
    """("ok" | "refused" | "crash" | "hang" | "unclear", detail)."""
    signal.setitimer(signal.ITIMER_REAL, hang)
    try:
        sim = Simulation.from_text(text, limits=limits, max_events=2_000)
        sim.run_until_idle()
        return "ok", ""
    except INPUT_ERRORS as err:
        lines = [str(p) for p in getattr(err, "problems", ())] or [str(err)]
        if any("internal error" in line for line in lines):
            return "crash", lines[0]
        bad = [line for line in lines if not LINE.match(line) or "\n" in line or PYTHON_NAMES.search(line)]
        return ("unclear", bad[0]) if bad else ("refused", "")
    except Hang:
        return "hang", text[:120]
    except Exception as err:  # noqa: BLE001 - that is what is counted
        return "crash", f"{type(err).__name__}: {err}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def fuzz(name: str, bases: list[str], cases: int, hang: float, rng: random.Random, limits) -> None:
    counts: Counter[str] = Counter()
    examples: dict[str, str] = {}
    slowest = 0.0
    start = time.perf_counter()
    for _ in range(cases):
        text = mutate(rng.choice(bases), rng)
        t0 = time.perf_counter()
        outcome, detail = classify(text, hang, limits)
        slowest = max(slowest, time.perf_counter() - t0)
        counts[outcome] += 1
        if detail and outcome not in examples:
            examples[outcome] = detail
    took = time.perf_counter() - start
    print(f"{name}: {cases} cases in {took:.0f} s (slowest {slowest:.2f} s): ok {counts['ok']}, refused "
          f"{counts['refused']}, crashes {counts['crash']}, hangs {counts['hang']}, unclear {counts['unclear']}")
    for outcome, detail in sorted(examples.items()):
        print(f"  e.g. {outcome}: {detail[:160]!r}")


# ---------------------------------------------------------------- bombs and worst files, each in a fresh process

MEASURE = textwrap.dedent("""\
    import json, sys, time
    sys.path.insert(0, {root!r})
    from kubesched.sim import Simulation, limits
    from kubesched.sim.inputs import INPUT_ERRORS
    text = open({path!r}, encoding="utf-8", errors="replace").read() if {via!r} == "ui" else None
    start = time.perf_counter()
    try:
        if {via!r} == "ui":
            sim = Simulation.from_text(text, limits=limits.DASHBOARD)
        else:
            import pathlib
            sim = Simulation.from_path(pathlib.Path({path!r}), limits=limits.CLI, trace={trace!r})
        loaded = time.perf_counter() - start
        sim.run_until_idle()
        outcome = f"ran: {{len(sim.inputs.objects)}} objects, load {{loaded:.1f}} s, stopped by {{sim.stopped_reason}}"
    except INPUT_ERRORS as err:
        outcome = "refused: " + str(err.problems[0] if getattr(err, "problems", None) else err)
    peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(json.dumps([time.perf_counter() - start, peak / 1024, outcome]))
    """)


def measure(path: Path, via: str, timeout: float, trace: bool = True) -> str:
    code = MEASURE.format(root=str(ROOT), path=str(path), via=via, trace=trace)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"HANG (over {timeout:.0f} s)"
    if done.returncode:
        return f"CRASH: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}"
    seconds, rss, outcome = json.loads(done.stdout.strip().splitlines()[-1])
    return f"{seconds:6.2f} s  peak {rss:5.0f} MB  {outcome[:150]}"


def node(i: int) -> str:
    return (f"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-{i}\n  labels: {{kubernetes.io/hostname: "
            f"node-{i}, topology.kubernetes.io/zone: zone-{i % 3}}}\nstatus:\n  capacity: {{cpu: '32', memory: 128Gi, "
            f"pods: '110'}}\n")


def pod(j: int, cpu: str = "100m") -> str:
    return (f"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-{j}\n  namespace: default\n  labels: {{app: a{j % 7}}}\n"
            f"spec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests: {{cpu: {cpu}, "
            f"memory: 100Mi}}\n")


def bombs(directory: Path) -> dict[str, str]:
    mib = 1 << 20
    laughs = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    deployment = ("---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: w{i}, namespace: default}}\nspec:\n"
                  "  replicas: 5000\n  selector: {{matchLabels: {{app: w}}}}\n  template:\n    metadata: {{labels: "
                  "{{app: w}}}}\n    spec: {{containers: [{{name: c, image: nginx}}]}}\n")
    files = {
        "billion laughs (10^9 via aliases)": "\n".join(laughs) + "\n",
        "50 MB file": "# padding\n" * (5 * mib),
        "10,000 documents": "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n" * 10_000,
        "1,000-level nesting (block)": "".join("  " * i + "a:\n" for i in range(1000)) + "  " * 1000 + "b\n",
        "1,000-level nesting (flow)": "a: " + "[" * 1000 + "]" * 1000 + "\n",
        "5 MiB of one-character values": "[" + "0," * (5 * mib // 2 - 8) + "0]\n",
        "100 Deployments x 5,000 replicas": "".join(deployment.format(i=i) for i in range(100)),
        "at: 1e300 (the issue's minutes-long run)": node(0) + pod(0, cpu="64") + SCENARIO.replace("at: 20", "at: 1.0e+300"),
    }
    paths = {}
    for name, text in files.items():
        path = directory / (re.sub(r"\W+", "-", name).strip("-") + ".yaml")
        path.write_text(text)
        paths[name] = path
    return paths


def worst_files(directory: Path) -> dict[str, tuple[Path, str]]:
    """The largest work each door lets through."""
    dash_nodes, dash_pods = 250, 1000
    worst = {
        f"dashboard: {dash_nodes} nodes x {dash_pods} pods (the nodes x pods budget)":
            ("".join(node(i) for i in range(dash_nodes)) + "".join(pod(j) for j in range(dash_pods)), "ui"),
        "dashboard: 1 node x 1,000 pods, 890 never fit (retried to the horizon)":
            (node(0) + "".join(pod(j) for j in range(1000)), "ui"),
        "dashboard: 2,500 nodes x 100 pods": ("".join(node(i) for i in range(2500)) + "".join(pod(j) for j in range(100)),
                                              "ui"),
        "dashboard: 2,000 actions a horizon apart, a pod that never fits (the event cap)":
            (node(0) + pod(0, cpu="64") + "---\napiVersion: kubesched/v1alpha1\nkind: Scenario\nspec:\n  actions:\n"
             + "".join(f"  - {{at: {300 * (k + 1)}, {'cordon' if k % 2 == 0 else 'uncordon'}: node-0}}\n"
                       for k in range(2000)), "ui"),
        "CLI: 1,000 nodes x 5,000 pods (the nodes x pods budget, traced)":
            ("---\napiVersion: v1\nkind: List\nitems:\n" + "".join(
                "- " + doc.removeprefix("---\n").replace("\n", "\n  ").rstrip() + "\n"
                for doc in [node(i) for i in range(1000)] + [pod(j) for j in range(5000)]), "cli"),
    }
    out = {}
    for name, (text, via) in worst.items():
        path = directory / (re.sub(r"\W+", "-", name).strip("-")[:60] + ".yaml")
        path.write_text(text)
        out[name] = (path, via)
    return out


def extender_urls() -> None:
    urls = ["http://127.0.0.1:1/x", "http://[::1]:1/x", "http://localhost:1/x", "http://0.0.0.0:1/x",
            "http://[::ffff:127.0.0.1]:1/x", "http://[::ffff:169.254.169.254]/", "http://169.254.169.254/latest",
            "http://metadata.google.internal/", "http://127.0.0.1.nip.io/", "http://2130706433/", "http://0x7f.1/",
            "http://127.1/", "http://[::]/", "http://127.0.0.1@evil.example/", "file:///etc/passwd",
            "gopher://127.0.0.1:6379/_INFO", "ftp://127.0.0.1/", "dict://127.0.0.1:11211/", "ldap://127.0.0.1/",
            "http://127.0.0.1:1/é", "http://127.0.0.1:1/a%zz", "http://127.0.0.1:1/a\nb", "http://127.0.0.1:99999/",
            "HTTP://127.0.0.1:1/", "http://LOCALHOST.:1/", "https://127.0.0.1:1/", "http://[fe80::1%25eth0]/", ""]
    refused = allowed = unclear = 0
    for url in urls:
        why = LOOPBACK_ONLY.refusal(url)
        if why is None:
            try:
                request_uri(url)
                allowed += 1
            except TransportError:
                refused += 1
        else:
            refused += 1
            unclear += bool(PYTHON_NAMES.search(why)) or "\n" in why
    print(f"extender URLs: {len(urls)} cases: allowed {allowed} (loopback only), refused {refused}, "
          f"unclear {unclear}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000, help="mutated inputs per fuzz section")
    parser.add_argument("--hang", type=float, default=20.0, help="seconds after which a case counts as a hang")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--only", default="", help="only the worst files whose name holds this text (no fuzzing)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    samples = [p.read_text() for p in SAMPLES]
    if args.only:
        args.cases = 0
    fuzz("mutated sample clusters (dashboard door)", samples, args.cases, args.hang, rng, DASHBOARD)
    fuzz("mutated clusters with a Scenario (Python API)", [s + SCENARIO for s in samples[:6]], args.cases,
         args.hang, rng, None)
    extender_urls()
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        print("bombs (time to refuse, peak RSS of a fresh process):")
        for name, path in bombs(directory).items() if not args.only else ():
            for via in ("cli", "ui"):
                print(f"  {name:45} {via:3} {measure(path, via, 300)}")
        print("worst files under the limits (load + run to the end):")
        for name, (path, via) in worst_files(directory).items():
            if args.only and args.only not in name:
                continue
            print(f"  {name:72} {measure(path, via, 900)}")


if __name__ == "__main__":
    main()
