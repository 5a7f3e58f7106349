"""Field-error wording and the name/label format checks of apimachinery.

Upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go
(Error.ErrorBody: Required, Forbidden, Invalid, NotSupported, Duplicate, NotFound),
staging/src/k8s.io/apimachinery/pkg/api/validation/path/name.go (IsValidPathSegmentName)
and staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go
(IsQualifiedName, IsValidLabelValue, IsDNS1123Label, IsDNS1123Subdomain,
IsDNS1035Label, IsEnvVarName, IsValidPortNum, IsValidPortName, RegexError, MaxLenError).
The formats are matched against the whole text, as Go's ``^…$`` does (``\\Z``: Python's ``$``
would also take a trailing newline).

Messages are byte-for-byte the v1.18 texts, so a learner sees what
``kubectl apply`` would print. Paths use this project's form
(``metadata.labels.app``), not upstream's ``metadata.labels[app]``.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from kubesched.api.decode import Problem
from kubesched.util.strconv import go_quote

# ---------------------------------------------------------------- field errors (errors.go)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return go_quote(value)   # %q
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        inner = ", ".join(f'"{k}":"{v}"' for k, v in value.items())
        return f"map[string]string{{{inner}}}"
    return str(value)


def _with_detail(body: str, detail: str) -> str:
    return f"{body}: {detail}" if detail else body


def required(path: str, detail: str = "") -> Problem:
    return Problem(path, _with_detail("Required value", detail))


def forbidden(path: str, detail: str = "") -> Problem:
    return Problem(path, _with_detail("Forbidden", detail))


def invalid(path: str, value: Any, detail: str = "") -> Problem:
    return Problem(path, _with_detail(f"Invalid value: {_value(value)}", detail))


def not_supported(path: str, value: Any, supported: Iterable[str]) -> Problem:
    quoted = ", ".join(f'"{v}"' for v in supported)
    return Problem(path, f"Unsupported value: {_value(value)}: supported values: {quoted}")


def duplicate(path: str, value: Any) -> Problem:
    return Problem(path, f"Duplicate value: {_value(value)}")


def not_found(path: str, value: Any, detail: str = "") -> Problem:
    return Problem(path, _with_detail(f"Not found: {_value(value)}", detail))


# ---------------------------------------------------------------- formats (validation.go)


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """``RegexError``: the message, its examples and the regular expression."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def max_len_error(length: int) -> str:
    return f"must be no more than {length} characters"


EMPTY_ERROR = "must be non-empty"

QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
QUALIFIED_NAME_ERR_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', and must start "
                          "and end with an alphanumeric character")
QUALIFIED_NAME_MAX_LENGTH = 63
LABEL_VALUE_FMT = f"({QUALIFIED_NAME_FMT})?"
LABEL_VALUE_ERR_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, "
                       "'-', '_' or '.', and must start and end with an alphanumeric character")
LABEL_VALUE_MAX_LENGTH = 63
DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_LABEL_ERR_MSG = ("a DNS-1123 label must consist of lower case alphanumeric characters or '-', "
                         "and must start and end with an alphanumeric character")
DNS1123_LABEL_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*"
DNS1123_SUBDOMAIN_ERR_MSG = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, "
                             "'-' or '.', and must start and end with an alphanumeric character")
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
DNS1035_LABEL_ERR_MSG = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
                         "and must start and end with an alphanumeric character")

ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*"
ENV_VAR_NAME_ERR_MSG = ("a valid environment variable name must consist of alphabetic characters, digits, "
                        "'_', '-', or '.', and must not start with a digit")

_ENV_VAR_NAME = re.compile(f"^{ENV_VAR_NAME_FMT}\\Z")
_QUALIFIED = re.compile(f"^{QUALIFIED_NAME_FMT}\\Z")
_LABEL_VALUE = re.compile(f"^{LABEL_VALUE_FMT}\\Z")
_DNS1123_LABEL = re.compile(f"^{DNS1123_LABEL_FMT}\\Z")
_DNS1123_SUBDOMAIN = re.compile(f"^{DNS1123_SUBDOMAIN_FMT}\\Z")
_DNS1035_LABEL = re.compile(f"^{DNS1035_LABEL_FMT}\\Z")


def is_qualified_name(value: str) -> list[str]:
    """``IsQualifiedName``: ``[prefix/]name`` with a DNS-1123 subdomain prefix."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + EMPTY_ERROR)
        else:
            errs.extend("prefix part " + msg for msg in is_dns1123_subdomain(prefix))
    else:
        return ["a qualified name " + regex_error(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT,
                                                  "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part " + EMPTY_ERROR)
    elif len(name) > QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + max_len_error(QUALIFIED_NAME_MAX_LENGTH))
    if not _QUALIFIED.match(name):
        errs.append("name part " + regex_error(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT,
                                               "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    errs: list[str] = []
    if len(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _LABEL_VALUE.match(value):
        errs.append(regex_error(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def is_dns1123_label(value: str) -> list[str]:
    errs: list[str] = []
    if len(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if not _DNS1123_LABEL.match(value):
        errs.append(regex_error(DNS1123_LABEL_ERR_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    errs: list[str] = []
    if len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _DNS1123_SUBDOMAIN.match(value):
        errs.append(regex_error(DNS1123_SUBDOMAIN_ERR_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_dns1035_label(value: str) -> list[str]:
    errs: list[str] = []
    if len(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if not _DNS1035_LABEL.match(value):
        errs.append(regex_error(DNS1035_LABEL_ERR_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"))
    return errs


def is_valid_path_segment_name(value: str) -> list[str]:
    """``path.IsValidPathSegmentName`` (apimachinery/pkg/api/validation/path)."""
    if value in (".", ".."):
        return [f"may not be '{value}'"]
    return [f"may not contain '{c}'" for c in ("/", "%") if c in value]


def is_env_var_name(value: str) -> list[str]:
    """``IsEnvVarName``: the name's format, then ``hasChDirPrefix``."""
    errs: list[str] = []
    if not _ENV_VAR_NAME.match(value):
        errs.append(regex_error(ENV_VAR_NAME_ERR_MSG, ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
    if value in (".", ".."):
        errs.append(f"must not be '{value}'")
    elif value.startswith(".."):
        errs.append("must not start with '..'")
    return errs


def is_valid_port_num(port: int) -> list[str]:
    return [] if 1 <= port <= 65535 else ["must be between 1 and 65535, inclusive"]


def validate_label_name(name: str, path: str) -> list[Problem]:
    """``ValidateLabelName``: one Invalid per IsQualifiedName message."""
    return [invalid(path, name, msg) for msg in is_qualified_name(name)]


def validate_labels(labels: dict[str, str] | Any, path: str) -> list[Problem]:
    """``ValidateLabels``: qualified-name keys and valid label values.

    Deviation: the path names the key (``metadata.labels.app``), upstream
    reports the whole map path.
    """
    out: list[Problem] = []
    for key, value in labels.items():
        out += validate_label_name(key, f"{path}.{key}")
        out += [invalid(f"{path}.{key}", value, msg) for msg in is_valid_label_value(value)]
    return out
