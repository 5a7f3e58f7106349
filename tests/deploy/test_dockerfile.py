"""deploy/Dockerfile and .dockerignore, checked statically (no docker engine runs here).

The image must hold exactly what the dashboard reads at run time, run as a numeric non-root
user, need no network, and answer its healthcheck on Streamlit's /_stcore/health.
"""

import re

import pytest

from kubesched.lessons.format import CLUSTERS_DIR, LESSONS_DIR
from kubesched.ui.session import SAMPLE_DIR
from tests.deploy import dockerfile as df

INSTRUCTIONS = df.instructions(df.DOCKERFILE.read_text(encoding="utf-8"))
IGNORE = df.Ignore.parse(df.DOCKERIGNORE.read_text(encoding="utf-8"))
SERVER_CMD = ["streamlit", "run", "app.py", "--server.headless", "true", "--server.address", "0.0.0.0",
              "--server.port", "8501"]


def only(keyword: str) -> df.Instruction:
    found = [i for i in INSTRUCTIONS if i.keyword == keyword]
    assert len(found) == 1, f"deploy/Dockerfile: expected one {keyword}, found {len(found)}"
    return found[0]


def files_under(folder) -> set[str]:
    return {p.relative_to(df.ROOT).as_posix() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def runtime_files() -> set[str]:
    """What the dashboard reads at run time: app.py, the package, the samples and lessons, its config."""
    needed = {"app.py", "requirements.txt"} | files_under(df.ROOT / "kubesched")
    for folder in (SAMPLE_DIR, LESSONS_DIR, CLUSTERS_DIR):
        needed |= files_under(folder)
    config = df.ROOT / ".streamlit" / "config.toml"
    return needed | ({".streamlit/config.toml"} if config.exists() else set())


def test_base_image_is_python_3_11_slim_pinned_to_a_patch_release():
    assert re.fullmatch(r"python:3\.11\.\d+-slim-[a-z]+", only("FROM").args), only("FROM").args


def test_runs_as_a_numeric_non_root_user_after_the_last_root_step():
    user = only("USER")
    uid, _, gid = user.args.partition(":")
    assert uid.isdigit() and int(uid) > 0 and (not gid or (gid.isdigit() and int(gid) > 0)), user.args
    later = [i.keyword for i in INSTRUCTIONS if i.line > user.line]
    assert "RUN" not in later and "USER" not in later, later


def test_serves_streamlit_headless_on_all_addresses_port_8501():
    assert only("CMD").exec_form() == SERVER_CMD
    assert only("EXPOSE").args == "8501"


def test_healthcheck_asks_stcore_health_with_python_urllib():
    command = only("HEALTHCHECK").exec_form()
    assert command[:2] == ["python", "-c"], command
    assert "urllib.request" in command[2] and "http://127.0.0.1:8501/_stcore/health" in command[2], command


def test_no_curl_or_wget_and_no_remote_add():
    words = " ".join(i.args for i in INSTRUCTIONS if i.keyword in ("RUN", "HEALTHCHECK", "CMD"))
    assert not re.search(r"\b(curl|wget)\b", words), words
    assert all(i.keyword != "ADD" for i in INSTRUCTIONS)


@pytest.mark.parametrize("name, value", [
    ("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false"),  # no usage statistics leave the pod
    ("STREAMLIT_SERVER_HEADLESS", "true"),
    ("PYTHONDONTWRITEBYTECODE", "1"),  # the root filesystem is read-only in deployment.yaml
])
def test_environment(name, value):
    assert df.env(INSTRUCTIONS).get(name) == value


def test_installs_the_runtime_pins_only():
    runs = [i.args for i in INSTRUCTIONS if i.keyword == "RUN" and "pip install" in i.args]
    assert runs == ["pip install --no-cache-dir -r requirements.txt"]
    pins = [line for line in (df.ROOT / "requirements.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*", p) for p in pins), pins


def test_the_image_holds_exactly_the_runtime_files():
    image = df.copied(INSTRUCTIONS, df.context_files(df.ROOT, IGNORE))
    assert sorted(runtime_files() - image) == [], "needed at run time but not copied"
    assert sorted(image - runtime_files()) == [], "copied but not needed at run time"


@pytest.mark.parametrize("path, excluded", [
    (".venv/bin/python", True),
    (".git/config", True),
    ("tests/conftest.py", True),
    ("benchmarks/bench_load.py", True),
    ("artifacts/test_home_step_forward.png", True),
    ("deploy/Dockerfile", True),
    (".ci/run", True),
    ("requirements-dev.txt", True),
    (".env", True),
    (".streamlit/secrets.toml", True),
    ("kubesched/__pycache__/app.cpython-311.pyc", True),
    ("kubesched/ui/pages/home.cpython-311.pyc", True),
    ("app.py", False),
    ("requirements.txt", False),
    ("kubesched/ui/pages/home.py", False),
    ("sample_clusters/lessons/01-first-pod.yaml", False),
    ("lessons/zh/01-first-pod.md", False),
    (".streamlit/config.toml", False),
])
def test_dockerignore(path, excluded):
    assert IGNORE.excluded(path) is excluded


@pytest.mark.parametrize("text, path, excluded", [
    # moby/patternmatcher semantics: the last match wins; a folder match covers what is inside
    ("*\n!a\n", "a/b/c.py", False),
    ("*\n!a\na/b\n", "a/b/c.py", True),
    ("**/x\n", "x", True),
    ("**/x\n", "a/b/x/y", True),
    ("*.md\n", "a/b.md", False),
    ("/a/../b/\n", "b/c", True),
])
def test_ignore_pattern_semantics(text, path, excluded):
    assert df.Ignore.parse(text).excluded(path) is excluded
