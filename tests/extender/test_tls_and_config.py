"""HTTPS extenders (enableHTTPS, tlsConfig) and extenders built from a real v1alpha2 config."""

from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import pytest

from kubesched.extender.sample import SCORE_LABEL, SampleExtender, run_sample_extender
from kubesched.scheduler.apis.config.scheme import load_config
from kubesched.scheduler.core.extender import (
    ExtenderError,
    HostPriority,
    HTTPExtender,
    ignored_extended_resources,
    new_http_extenders,
)
from kubesched.scheduler.core.extender_policy import LOOPBACK_ONLY, ExtenderURLError

from .conftest import ExtenderCfg, make_node, make_pod

pytestmark = pytest.mark.timeout(30)
NODE = make_node("n0", {SCORE_LABEL: "6"})


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[str, str]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=extender.test", "-addext", "subjectAltName=DNS:extender.test",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=20)
    return str(cert), str(key)


@pytest.mark.parametrize("enable_https,tls,outcome", [
    (True, None, "ok"),  # EnableHTTPS without a CA: insecure TLS (makeTransport)
    (False, {"insecure": True}, "ok"),
    (False, None, "CERTIFICATE_VERIFY_FAILED"),
    (False, {"caFile": "CERT"}, "IP address mismatch"),  # verified chain, wrong host name
    (True, {"caFile": "CERT", "serverName": "extender.test"}, "ok"),
    (True, {"caData": "CERT-PEM", "serverName": "extender.test"}, "ok"),
    (True, {"caData": "CERT-B64", "serverName": "extender.test"}, "ok"),
    (True, {"caFile": "CERT", "serverName": "other.test"}, "Hostname mismatch"),
])
def test_https(certificate, enable_https, tls, outcome):
    cert, key = certificate
    pem = Path(cert).read_text()
    values = {"CERT": cert, "CERT-PEM": pem, "CERT-B64": base64.b64encode(pem.encode()).decode()}
    tls = {k: values.get(v, v) for k, v in tls.items()} if tls else None
    with run_sample_extender(tls=(cert, key)) as url:
        assert url.startswith("https://127.0.0.1:")
        ext = HTTPExtender(ExtenderCfg(url, enable_https=enable_https, tls_config=tls),
                           policy=LOOPBACK_ONLY)
        if outcome == "ok":
            assert ext.prioritize(make_pod(), [NODE]) == ([HostPriority("n0", 6)], 1)
        else:
            with pytest.raises(ExtenderError) as info:
                ext.prioritize(make_pod(), [NODE])
            assert str(info.value).startswith(f"Post {url}/prioritize: ")
            assert outcome in str(info.value)


def test_client_certificate_data_is_refused():
    with pytest.raises(ExtenderError) as info:
        HTTPExtender(ExtenderCfg("https://127.0.0.1:1", tls_config={"certData": "x"}),
                     policy=LOOPBACK_ONLY)
    assert str(info.value) == "tlsConfig.certData/keyData are not supported; use certFile/keyFile"


CONFIG = """
apiVersion: kubescheduler.config.k8s.io/v1alpha2
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: "{url}/ignorable"
  filterVerb: filter
  ignorable: true
- urlPrefix: "{url}/main"
  filterVerb: filter
  prioritizeVerb: prioritize
  bindVerb: bind
  weight: 3
  nodeCacheCapable: true
  httpTimeout: 750000000
  managedResources:
  - name: example.com/gpu
    ignoredByScheduler: true
"""


def test_extenders_from_a_v1alpha2_configuration():
    server = SampleExtender()
    with run_sample_extender(extender=server) as url:
        config = load_config(CONFIG.format(url=url))
        built = new_http_extenders(config.extenders, policy=LOOPBACK_ONLY)
        assert [e.name() for e in built] == [f"{url}/main", f"{url}/ignorable"]
        main = built[0]
        assert (main.timeout, main.weight, main.node_cache_capable, main.is_binder()) == (
            0.75, 3, True, True)
        assert built[1].timeout == 5.0
        assert ignored_extended_resources(config.extenders) == ["example.com/gpu"]
        gpu_pod = make_pod(requests={"example.com/gpu": "1"})
        assert (main.is_interested(gpu_pod), main.is_interested(make_pod())) == (True, False)
        assert main.prioritize(gpu_pod, [NODE]) == ([HostPriority("n0", 0)], 3)  # no node cache
        assert server.requests[0].body["NodeNames"] == ["n0"]


def test_configuration_with_a_remote_extender_is_refused():
    config = load_config(CONFIG.format(url="http://127.0.0.1:1").replace(
        "http://127.0.0.1:1/main", "http://metadata.google.internal/main"))
    with pytest.raises(ExtenderURLError) as info:
        new_http_extenders(config.extenders, policy=LOOPBACK_ONLY)
    assert str(info.value) == (
        'extenders[1].urlPrefix: "http://metadata.google.internal/main" is not allowed: only '
        "loopback extenders are enabled (set KUBESCHED_EXTENDER_ALLOW on the server to allow more)")
