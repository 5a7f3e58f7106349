"""Lesson claims as sentences in the learner's language.

Upstream: no counterpart. A claim stays checked in the form of ``kubesched.lessons.claims``
(the grammar is the data); this module only reads a parsed ``Claim`` back as a sentence, one
template per form, ``claim.<form>`` in ``kubesched/ui/i18n/claims.py``. ``ARGS`` names the
groups of each form's pattern, in order. An omitted "for P" reads as "the current pod"; a
quoted message or reason stays as the trace has it, between “ ”; identifiers (plugins, queues,
phases, nodes, pods) stay as they are spelled.
"""

from __future__ import annotations

from kubesched.lessons import claims
from kubesched.lessons.claims import Claim, parse
from kubesched.ui.figures.startup import step_label
from kubesched.ui.i18n import t

ARGS: dict[str, tuple[str, ...]] = {
    "queue": ("pod", "queue"), "no-queue": ("pod",), "phase": ("pod", "phase"),
    "bound": ("pod", "node", "time"), "fails": ("node", "plugin", "why", "for"),
    "passes": ("node", "for"), "not-evaluated": ("node", "plugin", "for"), "not-visited": ("node", "for"),
    "feasible-set": ("for", "nodes"), "filter-order": ("for", "nodes"), "evaluated": ("for", "n"),
    "feasible": ("for", "n"), "to-find": ("for", "n"), "score": ("plugin", "node", "for", "values"),
    "total": ("node", "for", "n"), "select": ("for", "node", "nodes"), "suggested": ("for", "node"),
    "victims": ("node", "pods"), "pick": ("for", "node", "criterion"), "pdb": ("node", "n"),
    "nominated": ("pod", "node"), "attempts": ("pod", "n"), "event": ("reason", "pod", "message"),
    "last-move": ("pod", "source", "target", "event"), "terminating": ("pod",), "no-preemption": ("pod",),
    "not-eligible": ("pod", "reason"), "unresolvable": ("node", "pod"), "potential": ("pod", "nodes"),
    "expired": ("pod",), "backoff": ("pod", "time"), "time": ("time",),
    "queues": ("active", "backoff", "unschedulable"), "phase-end": ("phase", "for", "code"),
    "startup": ("step",), "startup-detail": ("step", "field", "value"), "leader": ("replica",),
    "lease": ("replica", "transition"), "cycle": ("n",), "profile": ("pod", "profile"),
    "binding": ("pod", "result"), "holds": ("node", "pod"), "requests": ("node", "resource", "quantity"),
    "assumed": ("pod",), "forgotten": ("pod",), "permit-wait": ("pod",), "log": ("message",),
    "pop-order": ("pods",), "calls-at": ("plugin", "point", "for", "n"),
    "nominated-added": ("node", "for", "pods"), "filter-passes": ("node", "for", "n"),
    "extender": ("extender", "verb", "pod", "outcome"),
}
QUOTED = frozenset({"why", "message", "value"})
LISTS = frozenset({"nodes", "pods"})


def _value(name: str, raw: str, lang: str) -> str:
    if name == "for":
        return raw or t("claim.current_pod", lang)
    if name in QUOTED:
        return "“" + raw.replace('\\"', '"') + "”"   # the claim's \" is a quote
    if name in LISTS:
        return ", ".join(claims.items(raw)) or t("claim.nothing", lang)
    if name in ("node", "replica") and raw == "none":
        return t("claim.nobody", lang)
    if name == "step":
        return step_label(raw, lang)
    if name in ("source", "target") and raw == "-":
        return t("claim.outside", lang)
    return raw


def render(claim: Claim | str, lang: str = "en") -> str:
    """The sentence of ``claim`` (a ``Claim`` or its text) in ``lang``."""
    parsed = parse(claim) if isinstance(claim, str) else claim
    names = ARGS[parsed.form]
    values = {name: _value(name, raw, lang) for name, raw in zip(names, parsed.args, strict=True)}
    key = f"claim.{parsed.form}"
    if parsed.form == "bound" and values["time"]:
        key = "claim.bound_at"
    return t(key, lang, **values)


__all__ = ["ARGS", "render"]
