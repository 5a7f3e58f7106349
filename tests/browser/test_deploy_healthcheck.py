"""The image's HEALTHCHECK command (deploy/Dockerfile), run against a real Streamlit server.

The container cannot be built here, so the command is run as the image would run it, with the
server's test port in place of 8501: it exits 0 while the server answers and 1 when nothing listens.
"""

import subprocess
import sys

import pytest

from tests.browser.conftest import _free_port
from tests.deploy import dockerfile as df

(HEALTHCHECK,) = [i for i in df.instructions(df.DOCKERFILE.read_text(encoding="utf-8")) if i.keyword == "HEALTHCHECK"]


def run_healthcheck(port: int) -> int:
    program, flag, code = HEALTHCHECK.exec_form()
    assert (program, flag) == ("python", "-c") and "127.0.0.1:8501" in code
    return subprocess.run([sys.executable, flag, code.replace("127.0.0.1:8501", f"127.0.0.1:{port}")],
                          capture_output=True, timeout=30).returncode


@pytest.mark.parametrize("serving, expected", [(True, 0), (False, 1)])
def test_healthcheck_exit_code(st_server, serving, expected):
    port = int(st_server.rsplit(":", 1)[1]) if serving else _free_port()
    assert run_healthcheck(port) == expected
