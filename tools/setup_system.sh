#!/usr/bin/env bash
# System packages the build and tests need, installed only when missing, on
# Debian/Ubuntu (as root, or with sudo):
#   python3-venv      the project's virtualenv
#   nodejs, npm       KaTeX and the JS unit tests (versions pinned in package-lock.json)
#   fonts-noto-cjk    Chinese labels in figures (any CJK font found by fc-list will do)
#   chromium          browser tests (Playwright drives /usr/bin/chromium; no browser download)
#   fortunes-zh       the training corpus is checked against this package's file
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: not root and no sudo; install: $*" >&2; exit 1; }
  SUDO="sudo"
fi

missing=()
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
command -v fc-list >/dev/null || missing+=(fontconfig)
if ! command -v fc-list >/dev/null || [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then missing+=(fonts-noto-cjk); fi
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -f /usr/share/games/fortunes/chinese ] || missing+=(fortunes-zh)

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: system packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
