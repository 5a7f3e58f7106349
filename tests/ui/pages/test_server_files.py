"""The dashboard never reads a server file for a learner: a path typed into the Cluster editor or
uploaded as a file's content is YAML text (issue 17 item 1), shown as an error about that text."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui.pages.apptest import open_editor, run_app

ROOT = Path(__file__).resolve().parents[3]
NOT_AN_OBJECT = [{"line": 1, "object": "document 0", "field": "", "message": "must be an object, not a string"}]


@pytest.fixture()
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "kubeconfig.yaml"
    path.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: only-in-the-file}\n")
    return path


def _paths(secret: Path) -> list[str]:
    return ["sample_clusters/taints.yaml", str(ROOT / "sample_clusters" / "taints.yaml"), "/etc/passwd", str(secret)]


def _shown(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("code", "markdown", "text", "caption", "error")
                     for e in at.get(kind) if hasattr(e, "value"))


def _started() -> tuple[AppTest, str]:
    at = run_app()
    return at, at.session_state["sim"].digest()


def test_a_path_in_the_editor_is_text(secret):
    at, digest = _started()
    open_editor(at)
    for text in _paths(secret):
        at.text_area(key="cluster_editor").set_value(text).run()
        at.button(key="cluster_apply").click().run()
        assert not at.exception, at.exception
        assert at.session_state["cluster_problem_rows"] == NOT_AN_OBJECT, text
        assert at.session_state["sim"].digest() == digest  # the running cluster stays
        assert at.text_area(key="cluster_editor").value == text  # the draft stays
        assert "only-in-the-file" not in _shown(at)


def test_a_path_as_uploaded_content_is_text(secret):
    at, digest = _started()
    for text in _paths(secret):
        at.file_uploader(key="upload").set_value(("cluster.yaml", text.encode(), "application/x-yaml")).run()
        assert not at.exception, at.exception
        assert at.session_state["cluster_problem_rows"] == NOT_AN_OBJECT, text
        assert at.session_state["sim"].digest() == digest
        assert "only-in-the-file" not in _shown(at)


@pytest.mark.parametrize("at, message", [
    ("1" + "0" * 400, "must be a number of seconds from 0 to 10000000, not a 401-digit integer"),
    ("1.0e+300", "must be a number of seconds from 0 to 10000000, not 1e+300"),
    ("400", ("400s is more than the horizon (300s) after t=0; a run stops 300s after its last change, "
             "so write at most 300")),
])
def test_a_bad_scenario_time_is_a_field_error_not_an_exception(at, message):
    """Issue 17 item 2: Apply used to replace the page, sidebar included, with an OverflowError."""
    at_app, digest = _started()
    open_editor(at_app)
    text = at_app.text_area(key="cluster_editor").value + (
        "\n---\napiVersion: kubesched/v1alpha1\nkind: Scenario\nspec:\n  actions:\n"
        f"  - {{at: {at}, cordon: node-a}}\n")
    at_app.text_area(key="cluster_editor").set_value(text).run()
    at_app.button(key="cluster_apply").click().run()
    assert not at_app.exception, at_app.exception
    line = text.count("\n")
    assert at_app.session_state["cluster_problem_rows"] == [
        {"line": line, "object": "Scenario", "field": "spec.actions[0].at", "message": message}]
    assert at_app.session_state["sim"].digest() == digest
    assert at_app.sidebar.button(key="run_to_idle")  # the sidebar is still there


@pytest.mark.parametrize("door", ["upload", "editor"])
def test_text_over_the_upload_limit_is_refused_naming_it(door):
    """The dashboard's byte limit is Streamlit's server.maxUploadSize (1 MiB): a file one byte
    over it, uploaded (past the browser's own check) or pasted, is refused with the limit named."""
    at, digest = _started()
    text = "# x\n" * (1 << 18) + "a: 1\n"
    if door == "upload":
        at.file_uploader(key="upload").set_value(("big.yaml", text.encode(), "application/x-yaml")).run()
    else:
        open_editor(at)
        at.text_area(key="cluster_editor").set_value(text).run()
        at.button(key="cluster_apply").click().run()
    assert not at.exception, at.exception
    assert at.session_state["cluster_problem_rows"] == [
        {"line": 1, "object": "document 0", "field": "", "message": "this cluster is larger than this server "
         "allows: 1,048,581 bytes (at most 1,048,576 bytes, 1 MiB)"}]
    assert at.session_state["sim"].digest() == digest
