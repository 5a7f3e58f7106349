"""Scheduler extenders over real HTTP: the v1.18 wire format for filter, prioritize, bind, preempt.

Upstream: pkg/scheduler/core/extender.go (SchedulerExtender, HTTPExtender, NewHTTPExtender,
makeTransport, Name, IsIgnorable, SupportsPreemption, ProcessPreemption,
convertToNodeToVictims, convertPodUIDToPod, convertToNodeNameToMetaVictims,
convertToNodeNameToVictims, Filter, Prioritize, Bind, IsBinder, send, IsInterested,
hasManagedResources); wire types from staging/src/k8s.io/kube-scheduler/extender/v1/types.go
(ExtenderArgs, ExtenderFilterResult, HostPriority(List), ExtenderBindingArgs/Result,
ExtenderPreemptionArgs/Result, Victims, MetaPod, MetaVictims); the extender list of
pkg/scheduler/factory.go (Configurator.create: ignorable extenders last, ignored resources).

Wire format. The 1.18 types carry no JSON tags, so Go writes the field names as they are
(``{"Pod": …, "Nodes": …, "NodeNames": …}``), nil pointers/maps/slices as ``null``, and reads
answers with case-insensitive field matching (an exact match first) — an extender written
against the older tagged types (``nodenames``, ``failedNodes``, ``error``) still works. Pods
and nodes are Kubernetes JSON from :func:`kubesched.api.encode.to_manifest` without
``apiVersion``/``kind`` (objects from informers carry no TypeMeta).

Errors are raised as :class:`ExtenderError` with upstream's text: ``Failed <verb> with
extender at URL <url>, code <status>``; transport failures as Go 1.13's ``url.Error``
(``Post <url>: …``; :mod:`kubesched.scheduler.core.extender_transport` makes the call, with
``httpTimeout`` bounding the whole exchange as ``Client.Timeout`` does); an answer that is
not JSON as ``json.Decoder`` says it (``invalid character '<' looking for beginning of
value``, ``EOF``; like the decoder, anything after the first JSON value is not read); an
``Error`` field of an answer verbatim.

``Victims``/``MetaPod``/``MetaVictims`` are core/preemption.py's (one definition).

Every URL passes :mod:`kubesched.scheduler.core.extender_policy` when the extender is
built (loopback only unless the server allows more).

Deviation: upstream keys preemption candidates by ``*v1.Node``; here by node name
(``{name: Victims}``; a key may also be a Node). Redirects are not followed and proxy
environment variables are ignored (see extender_transport): an allowed loopback URL cannot
send the call elsewhere. TLS client certificates come from ``certFile``/``keyFile`` only
(``certData``/``keyData`` are refused). Go's JSON type errors are paraphrased (``json:
cannot unmarshal …``), as are syntax errors other than a bad first character or a cut-off
answer.
"""

from __future__ import annotations

import base64
import datetime as _dt
import json
import re
import socket
import ssl
import urllib.parse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kubesched.api.core import Binding, Container, Node, Pod
from kubesched.api.decode import decode
from kubesched.api.encode import to_manifest
from kubesched.scheduler.core.extender_policy import ExtenderURLPolicy, server_policy
from kubesched.scheduler.core.extender_transport import TransportError, post
from kubesched.scheduler.core.preemption import MetaPod, MetaVictims, Victims

DEFAULT_EXTENDER_TIMEOUT = 5.0  # seconds; DefaultExtenderTimeout
MIN_EXTENDER_PRIORITY = 0  # extenderv1.MinExtenderPriority
MAX_EXTENDER_PRIORITY = 10  # extenderv1.MaxExtenderPriority


class ExtenderError(Exception):
    """An extender call failed; ``str()`` is upstream's error text."""


# ---------------------------------------------------------------- configuration (read side)


class ExtenderManagedResource(Protocol):
    name: str
    ignored_by_scheduler: bool


class ExtenderConfig(Protocol):
    """The fields of ``config.Extender`` read here (apis/config owns the type)."""

    url_prefix: str
    filter_verb: str
    preempt_verb: str
    prioritize_verb: str
    bind_verb: str
    weight: int
    enable_https: bool
    tls_config: Any
    http_timeout_ns: int  # or ``http_timeout`` (seconds, timedelta or Go duration text)
    node_cache_capable: bool
    managed_resources: Sequence[ExtenderManagedResource]
    ignorable: bool


# ---------------------------------------------------------------- wire types


@dataclass(frozen=True, slots=True)
class HostPriority:
    """``extenderv1.HostPriority``: a node name and its extender score (0..10)."""

    host: str
    score: int


# Victims, MetaPod and MetaVictims (extenderv1) are defined once, in core/preemption.py.


# ---------------------------------------------------------------- the interface


class SchedulerExtender(Protocol):
    """``SchedulerExtender``; errors are raised (``ExtenderError`` for HTTP extenders)."""

    def name(self) -> str: ...

    def filter(self, pod: Pod, nodes: list[Node]) -> tuple[list[Node], dict[str, str]]: ...

    def prioritize(self, pod: Pod, nodes: list[Node]) -> tuple[list[HostPriority], int]: ...

    def bind(self, binding: Binding) -> None: ...

    def is_binder(self) -> bool: ...

    def is_interested(self, pod: Pod) -> bool: ...

    def process_preemption(self, pod: Pod, node_to_victims: Mapping[Any, Any],
                           node_infos: Any) -> dict[str, Victims]: ...

    def supports_preemption(self) -> bool: ...

    def is_ignorable(self) -> bool: ...


# ---------------------------------------------------------------- HTTPExtender


class HTTPExtender:
    """``HTTPExtender``: calls an extender's verbs with JSON over HTTP(S)."""

    def __init__(self, config: ExtenderConfig, *, index: int = 0,
                 policy: ExtenderURLPolicy | None = None) -> None:
        """``NewHTTPExtender``; refuses a URL the server's policy does not allow."""
        self.extender_url: str = config.url_prefix
        (policy or server_policy()).check(index, self.extender_url)
        self.preempt_verb: str = config.preempt_verb or ""
        self.filter_verb: str = config.filter_verb or ""
        self.prioritize_verb: str = config.prioritize_verb or ""
        self.bind_verb: str = config.bind_verb or ""
        self.weight: int = int(config.weight or 0)
        self.node_cache_capable: bool = bool(config.node_cache_capable)
        self.managed_resources: frozenset[str] = frozenset(
            r.name for r in (getattr(config, "managed_resources", None) or ()))
        self.ignorable: bool = bool(config.ignorable)
        self.timeout: float = _config_timeout(config)
        self._ssl_context = _make_tls(config)

    def name(self) -> str:
        """``Name``: the URL prefix identifies the extender."""
        return self.extender_url

    def is_ignorable(self) -> bool:
        return self.ignorable

    def supports_preemption(self) -> bool:
        return bool(self.preempt_verb)

    def is_binder(self) -> bool:
        return bool(self.bind_verb)

    def is_interested(self, pod: Pod) -> bool:
        """``IsInterested``: no managed resources, or a (init) container asks for one."""
        if not self.managed_resources:
            return True
        return (self._has_managed_resources(pod.spec.containers)
                or self._has_managed_resources(pod.spec.init_containers))

    def _has_managed_resources(self, containers: Iterable[Container]) -> bool:
        for container in containers:
            if any(name in self.managed_resources for name in container.resources.requests):
                return True
            if any(name in self.managed_resources for name in container.resources.limits):
                return True
        return False

    # -- verbs

    def filter(self, pod: Pod, nodes: list[Node]) -> tuple[list[Node], dict[str, str]]:
        """``Filter``: (nodes that passed, {failed node: reason})."""
        from_node_name = {node.metadata.name: node for node in nodes}
        if not self.filter_verb:
            return list(nodes), {}
        result = _object_of(self._send(self.filter_verb, self._extender_args(pod, nodes)),
                            "v1.ExtenderFilterResult")
        error = _string(_get(result, "Error"), "ExtenderFilterResult.Error")
        if error:
            raise ExtenderError(error)
        node_names = _get(result, "NodeNames")
        node_list = _get(result, "Nodes")
        node_result: list[Node] = []
        if self.node_cache_capable and node_names is not None:
            for node_name in _strings(node_names, "ExtenderFilterResult.NodeNames"):
                if node_name not in from_node_name:
                    raise ExtenderError(
                        f'extender "{self.extender_url}" claims a filtered node "{node_name}" '
                        f"which is not found in the input node list")
                node_result.append(from_node_name[node_name])
        elif node_list is not None:
            node_result = _decode_node_list(node_list)
        failed = _get(result, "FailedNodes")
        return node_result, _string_map(failed, "ExtenderFilterResult.FailedNodes")

    def prioritize(self, pod: Pod, nodes: list[Node]) -> tuple[list[HostPriority], int]:
        """``Prioritize``: (host priorities, weight); no verb → every node 0 with weight 0."""
        if not self.prioritize_verb:
            return [HostPriority(node.metadata.name, 0) for node in nodes], 0
        answer = self._send(self.prioritize_verb, self._extender_args(pod, nodes))
        return _decode_host_priorities(answer), self.weight

    def bind(self, binding: Binding) -> None:
        """``Bind``: the extender binds the pod; an ``Error`` in the answer is raised."""
        if not self.is_binder():
            raise ExtenderError("Unexpected empty bindVerb in extender")
        args = {"PodName": binding.metadata.name, "PodNamespace": binding.metadata.namespace,
                "PodUID": binding.metadata.uid, "Node": binding.target.name}
        result = _object_of(self._send(self.bind_verb, args), "v1.ExtenderBindingResult")
        error = _string(_get(result, "Error"), "ExtenderBindingResult.Error")
        if error:
            raise ExtenderError(error)

    def process_preemption(self, pod: Pod, node_to_victims: Mapping[Any, Any],
                           node_infos: Any) -> dict[str, Victims]:
        """``ProcessPreemption``: the extender's candidate map, victims resolved by UID."""
        if not self.supports_preemption():
            raise ExtenderError(f"preempt verb is not defined for extender {self.extender_url} "
                                f"but run into ProcessPreemption")
        args: dict[str, Any] = {"Pod": _pod_json(pod), "NodeNameToVictims": None,
                                "NodeNameToMetaVictims": None}
        if self.node_cache_capable:
            args["NodeNameToMetaVictims"] = _meta_victims_json(node_to_victims)
        else:
            args["NodeNameToVictims"] = _victims_json(node_to_victims)
        result = _object_of(self._send(self.preempt_verb, args), "v1.ExtenderPreemptionResult")
        meta = _decode_meta_victims(_get(result, "NodeNameToMetaVictims"))
        return self.convert_to_node_to_victims(meta, node_infos)

    # -- helpers

    def convert_to_node_to_victims(self, node_name_to_meta_victims: Mapping[str, MetaVictims],
                                   node_infos: Any) -> dict[str, Victims]:
        """``convertToNodeToVictims``: UIDs back to the pods of the snapshot's NodeInfos."""
        out: dict[str, Victims] = {}
        for node_name, meta_victims in node_name_to_meta_victims.items():
            node_info = node_infos.get(node_name)
            pods = tuple(self.convert_pod_uid_to_pod(meta_pod, node_info)
                         for meta_pod in meta_victims.pods)
            out[node_info.node.metadata.name] = Victims(pods=pods)
        return out

    def convert_pod_uid_to_pod(self, meta_pod: MetaPod, node_info: Any) -> Pod:
        """``convertPodUIDToPod``; the error prints the MetaPod as Go's ``%v`` does."""
        for pod in node_info.pods:
            if pod.metadata.uid == meta_pod.uid:
                return pod
        raise ExtenderError(
            f"extender: {self.extender_url} claims to preempt pod (UID: &{{{meta_pod.uid}}}) "
            f"on node: {node_info.node.metadata.name}, but the pod is not found on that node")

    def _extender_args(self, pod: Pod, nodes: Sequence[Node]) -> dict[str, Any]:
        """``ExtenderArgs``: the full NodeList, or only names when nodeCacheCapable."""
        if self.node_cache_capable:
            return {"Pod": _pod_json(pod), "Nodes": None,
                    "NodeNames": [node.metadata.name for node in nodes]}
        items = [to_manifest(node, type_meta=False) for node in nodes]
        return {"Pod": _pod_json(pod), "Nodes": {"metadata": {}, "items": items or None},
                "NodeNames": None}

    def _send(self, action: str, args: Any) -> Any:
        """``send``: POST JSON to ``<urlPrefix without trailing />/<verb>``; the decoded answer."""
        url = self.extender_url.rstrip("/") + "/" + action
        body = json.dumps(args, separators=(",", ":")).encode()
        try:
            status, payload = post(url, body, self.timeout, self._ssl_context)
        except TransportError as err:
            raise ExtenderError(str(err)) from None
        if status != 200:
            raise ExtenderError(f"Failed {action} with extender at URL {url}, code {status}")
        return _decode_json(payload)


def new_http_extender(config: ExtenderConfig, index: int = 0,
                      policy: ExtenderURLPolicy | None = None) -> HTTPExtender:
    """``NewHTTPExtender``."""
    return HTTPExtender(config, index=index, policy=policy)


def new_http_extenders(configs: Sequence[ExtenderConfig],
                       policy: ExtenderURLPolicy | None = None) -> list[HTTPExtender]:
    """All configured extenders, ignorable ones last (factory.go ``Configurator.create``).

    Every URL is checked (``extenders[i]`` in configuration order) before any is built.
    """
    policy = policy or server_policy()
    policy.check_all(config.url_prefix for config in configs)
    built = [HTTPExtender(config, index=i, policy=policy) for i, config in enumerate(configs)]
    return [e for e in built if not e.is_ignorable()] + [e for e in built if e.is_ignorable()]


def ignored_extended_resources(configs: Sequence[ExtenderConfig]) -> list[str]:
    """Managed resources marked ``ignoredByScheduler`` (passed to NodeResourcesFit)."""
    return [r.name for config in configs for r in (getattr(config, "managed_resources", None) or ())
            if getattr(r, "ignored_by_scheduler", False)]


def new_binding(pod: Pod, node_name: str) -> Binding:
    """The ``v1.Binding`` scheduler.go ``extendersBinding`` hands to ``Bind``."""
    from kubesched.api.meta import ObjectMeta, ObjectReference
    return Binding(metadata=ObjectMeta(name=pod.metadata.name, namespace=pod.metadata.namespace,
                                       uid=pod.metadata.uid),
                   target=ObjectReference(kind="Node", name=node_name))


# ---------------------------------------------------------------- timeout and TLS

_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)")
_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def http_timeout_seconds(value: Any) -> float:
    """``httpTimeout`` in seconds; 0 or unset → ``DefaultExtenderTimeout`` (5 s).

    Accepts seconds (int/float), a ``timedelta`` or Go duration text (``"1.5s"``, ``"300ms"``).
    """
    if value is None or value == "":
        seconds = 0.0
    elif isinstance(value, _dt.timedelta):
        seconds = value.total_seconds()
    elif isinstance(value, str):
        seconds = _parse_duration(value)
    else:
        seconds = float(value)
    return seconds if seconds > 0 else DEFAULT_EXTENDER_TIMEOUT


def _config_timeout(config: Any) -> float:
    """The configured timeout: ``http_timeout_ns`` (apis/config) or ``http_timeout``."""
    nanos = getattr(config, "http_timeout_ns", None)
    if nanos is not None:
        return http_timeout_seconds(nanos / 1e9)
    return http_timeout_seconds(getattr(config, "http_timeout", None))


def _parse_duration(text: str) -> float:
    pos, total = 0, 0.0
    for match in _DURATION.finditer(text):
        if match.start() != pos:
            break
        total += float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
        pos = match.end()
    if pos != len(text) or not text:
        if text == "0":
            return 0.0
        raise ValueError(f'time: invalid duration "{text}"')
    return total


def _make_tls(config: Any) -> ssl.SSLContext | None:
    """``makeTransport``: TLS settings for https URLs; EnableHTTPS without a CA → insecure."""
    if urllib.parse.urlsplit(config.url_prefix).scheme.lower() != "https":
        return None
    tls = getattr(config, "tls_config", None)
    ca_file, ca_data = _tls(tls, "ca_file"), _tls(tls, "ca_data", data=True)
    insecure = bool(_tls(tls, "insecure"))
    if getattr(config, "enable_https", False) and not ca_file and not ca_data:
        insecure = True
    if _tls(tls, "cert_data") or _tls(tls, "key_data"):
        raise ExtenderError("tlsConfig.certData/keyData are not supported; use certFile/keyFile")
    context = ssl.create_default_context(cafile=ca_file or None, cadata=ca_data or None)
    if insecure:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    cert_file = _tls(tls, "cert_file")
    if cert_file:
        context.load_cert_chain(cert_file, _tls(tls, "key_file") or None)
    server_name = _tls(tls, "server_name")
    if server_name:
        return _ServerNameContext(context, server_name)  # type: ignore[return-value]
    return context


def _tls(tls: Any, name: str, data: bool = False) -> Any:
    """A ``tlsConfig`` field from an object (snake_case) or a manifest mapping (camelCase).

    ``caData`` in a mapping is base64 text, as Go encodes ``[]byte``; PEM text is taken as is.
    """
    if tls is None:
        return ""
    if isinstance(tls, Mapping):
        head, *rest = name.split("_")
        value = tls.get(head + "".join(p.capitalize() for p in rest), "")
    else:
        value = getattr(tls, name, "")
    if data and value:
        return _pem(value)
    return value or ""


def _pem(value: Any) -> str:
    text = _text(value)
    if "-----BEGIN" in text:
        return text
    try:
        return base64.b64decode(text, validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        raise ExtenderError("tlsConfig.caData is neither PEM nor base64") from None


def _text(data: Any) -> str:
    return data.decode() if isinstance(data, (bytes, bytearray)) else str(data)


class _ServerNameContext:
    """An SSLContext stand-in that verifies ``tlsConfig.serverName`` instead of the URL host."""

    def __init__(self, context: ssl.SSLContext, server_name: str) -> None:
        self._context, self._server_name = context, server_name

    def wrap_socket(self, sock: socket.socket, server_hostname: str | None = None,
                    **kwargs: Any) -> ssl.SSLSocket:
        return self._context.wrap_socket(sock, server_hostname=self._server_name, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


# ---------------------------------------------------------------- JSON (Go encoding/json rules)

_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "bool", int: "number",
               float: "number"}


def _decode_json(payload: bytes) -> Any:
    """The first JSON value of ``payload`` as ``json.NewDecoder(body).Decode`` reads it."""
    text = payload.decode("utf-8", errors="replace")  # Go replaces invalid UTF-8 with U+FFFD
    start = len(text) - len(text.lstrip(" \t\r\n"))
    if start == len(text):
        raise ExtenderError("EOF")
    try:
        return _JSON.raw_decode(text, start)[0]
    except ValueError as err:
        pos = getattr(err, "pos", start)
        if pos >= len(text):
            raise ExtenderError("unexpected EOF") from None
        where = "looking for beginning of value" if getattr(err, "msg", "") in ("Expecting value", "") \
            else f"({getattr(err, 'msg', err)})"
        raise ExtenderError(f"invalid character {_go_char(text[pos])} {where}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN / Infinity are not JSON


_JSON = json.JSONDecoder(parse_constant=_no_constant)


def _go_char(c: str) -> str:
    """``quoteChar`` of encoding/json: ``'x'``, ``'\\''``, ``'"'``, or strconv.Quote's escape."""
    if c == "'":
        return "'\\''"
    if c == '"':
        return "'\"'"
    if c.isprintable():
        return f"'{c}'"
    escape = _GO_ESCAPES.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
    return f"'{escape}'"


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def _pod_json(pod: Pod) -> dict[str, Any]:
    return to_manifest(pod, type_meta=False)


def _victims_json(node_to_victims: Mapping[Any, Any]) -> dict[str, Any]:
    """``convertToNodeNameToVictims``."""
    return {_node_key(node): {"Pods": [_pod_json(p) for p in victims.pods],
                              "NumPDBViolations": int(getattr(victims, "num_pdb_violations", 0))}
            for node, victims in node_to_victims.items()}


def _meta_victims_json(node_to_victims: Mapping[Any, Any]) -> dict[str, Any]:
    """``convertToNodeNameToMetaVictims`` (NumPDBViolations is not carried: 0)."""
    return {_node_key(node): {"Pods": [{"UID": p.metadata.uid} for p in victims.pods],
                              "NumPDBViolations": 0}
            for node, victims in node_to_victims.items()}


def _node_key(node: Any) -> str:
    return node if isinstance(node, str) else node.metadata.name


def _get(obj: Mapping[str, Any], name: str) -> Any:
    """A field as Go's decoder finds it: the exact key, else a case-insensitive match."""
    if name in obj:
        return obj[name]
    folded = name.casefold()
    for key, value in obj.items():
        if key.casefold() == folded:
            return value
    return None


def _unmarshal_error(value: Any, go_type: str) -> ExtenderError:
    kind = _JSON_TYPES.get(type(value), "value")
    return ExtenderError(f"json: cannot unmarshal {kind} into Go value of type {go_type}")


def _object_of(value: Any, go_type: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _unmarshal_error(value, go_type)
    return value


def _string(value: Any, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _unmarshal_error(value, f"string (field {field})")
    return value


def _strings(value: Any, field: str) -> list[str]:
    if not isinstance(value, list):
        raise _unmarshal_error(value, f"[]string (field {field})")
    return [_string(v, field) for v in value]


def _string_map(value: Any, field: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _unmarshal_error(value, f"map[string]string (field {field})")
    return {key: _string(v, field) for key, v in value.items()}


def _int(value: Any, field: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise _unmarshal_error(value, f"int64 (field {field})")
    return value


def _decode_node_list(value: Any) -> list[Node]:
    items = _get(_object_of(value, "v1.NodeList"), "items")
    if items is None:
        return []
    if not isinstance(items, list):
        raise _unmarshal_error(items, "[]v1.Node (field NodeList.items)")
    nodes = []
    for i, item in enumerate(items):
        node, problems = decode(Node, item, f"Nodes.items[{i}]")
        errors = [p for p in problems if not p.warning]
        if errors:
            raise ExtenderError(f"json: cannot decode {errors[0].path}: {errors[0].message}")
        nodes.append(node)
    return nodes


def _decode_host_priorities(value: Any) -> list[HostPriority]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _unmarshal_error(value, "v1.HostPriorityList")
    out = []
    for item in value:
        entry = _object_of(item, "v1.HostPriority")
        out.append(HostPriority(_string(_get(entry, "Host"), "HostPriority.Host"),
                                _int(_get(entry, "Score"), "HostPriority.Score")))
    return out


def _decode_meta_victims(value: Any) -> dict[str, MetaVictims]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _unmarshal_error(value, "map[string]*v1.MetaVictims")
    out = {}
    for node_name, entry in value.items():
        victims = _object_of(entry, "v1.MetaVictims")
        pods = _get(victims, "Pods")
        if pods is not None and not isinstance(pods, list):
            raise _unmarshal_error(pods, "[]*v1.MetaPod (field MetaVictims.Pods)")
        out[node_name] = MetaVictims(
            pods=tuple(MetaPod(_string(_get(_object_of(p, "v1.MetaPod"), "UID"), "MetaPod.UID"))
                       for p in pods or ()),
            num_pdb_violations=_int(_get(victims, "NumPDBViolations"), "MetaVictims.NumPDBViolations"))
    return out


__all__ = [
    "DEFAULT_EXTENDER_TIMEOUT",
    "MAX_EXTENDER_PRIORITY",
    "MIN_EXTENDER_PRIORITY",
    "ExtenderConfig",
    "ExtenderError",
    "HTTPExtender",
    "HostPriority",
    "MetaPod",
    "MetaVictims",
    "SchedulerExtender",
    "Victims",
    "http_timeout_seconds",
    "ignored_extended_resources",
    "new_binding",
    "new_http_extender",
    "new_http_extenders",
]
