#!/usr/bin/env bash
# System packages the build and tests need, installed only when missing, on
# Debian/Ubuntu (as root, or with sudo):
#   python3-venv      the project's virtualenv
#   (not Node.js: the lock pins one exact version, and tools/scripts/install_venv.sh links it into the virtualenv;
#   Debian's nodejs, 18 on bookworm, is older than the locked KaTeX's dependencies allow)
#   fonts-noto-cjk    Chinese labels in figures (any CJK font found by fc-list will do)
#   chromium          the slow-phone loads (Playwright drives /usr/bin/chromium; no browser download)
#   chromium-headless-shell  the other browser tests (tests/browser/conftest.py says why)
#   fortunes-zh       the training corpus is checked against this package's file
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: not root and no sudo; install: $*" >&2; exit 1; }
  SUDO="sudo"
fi

missing=()
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
command -v fc-list >/dev/null || missing+=(fontconfig)
if ! command -v fc-list >/dev/null || [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then missing+=(fonts-noto-cjk); fi
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ -f /usr/share/games/fortunes/chinese ] || missing+=(fortunes-zh)

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: system packages present"
  exit 0
fi
# These come from whatever the distribution's archive serves today: they are not pinned (MAINTAINING.md,
# "Setup"). Print the versions installed, so that a log says what a run used.
echo "setup: installing ${missing[*]} from the distribution's archive (versions not pinned)"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
dpkg-query -W -f='setup: installed ${Package} ${Version}\n' "${missing[@]}" 2>/dev/null || true
