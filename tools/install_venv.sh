#!/usr/bin/env bash
# The virtualenv, from the lock file (`make setup` runs this when requirements.lock or pyproject.toml changes):
#
#   bash tools/install_venv.sh PYTHON VENV LOCK TORCH_CPU_INDEX
#   bash tools/install_venv.sh --uv-args PYTHON     (only print what step 2 passes on to uv)
#
# 1. PYTHON -m venv VENV (with pip).
# 2. pip installs uv, at the version LOCK pins, and uv installs LOCK. uv downloads and unpacks in
#    parallel and keeps a cache (~/.cache/uv): about 15 s on two cores where pip takes about 60 s.
#    uv does not read pip's configuration, so where this machine's pip is configured to look for
#    packages (pip.conf or PIP_* variables: index-url, extra-index-url, find-links, constraint) is
#    passed on to it, and like pip it takes each pinned version from whichever of those has it.
# 3. LOCK pins torch's CPU build (torch==…+cpu), which PyPI does not carry. Where the configured
#    places lack it (CI sets PIP_EXTRA_INDEX_URL; a machine may keep a local wheel store),
#    TORCH_CPU_INDEX, PyTorch's CPU index, is added.
# 4. Bytecode, compiled on every core. It skips what no test or build imports: the packages' own test
#    folders, torch's test helpers, the transformers model zoo (the few models the reference tests
#    load compile when imported), and packages installed only as dependencies of tools the project
#    does not run here (mutmut's, IPython's interactive ones, setuptools, pip): a full `make test`
#    read none of their bytecode. On a machine that sets PYTHONDONTWRITEBYTECODE (this one does),
#    bytecode is written here or never, and every process would compile its imports again.
set -euo pipefail

# uv's options for the places pip is configured to look, one per line; `--uv-args PYTHON` prints them.
uv_args() {
  local line key value v
  while IFS= read -r line; do  # e.g. global.extra-index-url='file:///a file:///b' or :env:.find-links='/opt/wheels'
    key=${line%%=*} value=${line#*=}
    key=${key##*.} value=${value#\'} value=${value%\'}
    case $key in
      index-url) printf '%s\n' --index-url "$value" ;;
      extra-index-url) for v in $value; do printf '%s\n' --extra-index-url "$v"; done ;;
      find-links) for v in $value; do printf '%s\n' --find-links "$v"; done ;;
      constraint) for v in $value; do printf '%s\n' --constraint "$v"; done ;;
    esac
  done < <("$1" -m pip config list)
}
if [ "${1:-}" = --uv-args ]; then uv_args "$2"; exit; fi

python=$1 venv=$2 lock=$3 torch_cpu_index=$4
NOT_IMPORTED='/(tests?|transformers/models|torch/testing/_internal|networkx|textual|libcst|pydantic|rich|prompt_toolkit|jedi|fsspec|wcwidth|coverage|hypothesis|anyio|setuptools|pip)/'

echo "setup: creating $venv from $lock (first time: a minute or two)"
"$python" -m venv "$venv"
py="$venv/bin/python"
uv=$(grep -m1 '^uv==' "$lock") || { echo "setup: $lock pins no uv (uv==…); add it" >&2; exit 1; }
"$py" -m pip install -q --no-compile "$uv"

args=(--python "$py" --index-strategy unsafe-best-match)
mapfile -t -O ${#args[@]} args < <(uv_args "$py")
if [ -n "${PIP_CERT:-}" ]; then export SSL_CERT_FILE=$PIP_CERT; fi

torch=$(grep -m1 '^torch==' "$lock")
if ! "$py" -m pip install --dry-run --no-deps -q "$torch" >/dev/null 2>&1; then
  echo "setup: $torch is not where pip is configured to look; adding PyTorch's CPU index $torch_cpu_index"
  args+=(--extra-index-url "$torch_cpu_index")
fi
"$venv/bin/uv" pip install "${args[@]}" -r "$lock"

echo "setup: compiling the installed modules to bytecode, on every core"
site=$("$py" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
"$py" -m compileall -qq -j 0 -x "$NOT_IMPORTED" "$site" \
  || echo "setup: a few modules did not compile (as with pip, Python compiles them when imported)"
