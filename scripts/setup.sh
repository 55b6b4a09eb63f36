#!/usr/bin/env bash
# Installs what GesturePad needs on Debian / Ubuntu, only what is missing.
#   scripts/setup.sh          build and run: libwebsockets, libqrencode, pkg-config
#   scripts/setup.sh --test   also the test tools: Chromium, a Python venv (.venv) with
#                             pytest and websockets
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libwebsockets-dev libqrencode-dev pkg-config)
if [[ "${1:-}" == "--test" ]]; then
    packages+=(chromium python3 python3-venv)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# python3-venv is only needed when the python3 on PATH cannot make a venv by itself.
if [[ " ${missing[*]-} " == *" python3-venv "* ]] && command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null; then
    missing=("${missing[@]/python3-venv}")
fi
if [[ " ${missing[*]-} " == *" python3 "* ]] && command -v python3 >/dev/null; then
    missing=("${missing[@]/python3}")
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]-}" | grep -v '^$' || true)

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo=""
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null; then
    echo "setup: the Swift toolchain (6.1 or later) is not on PATH — see https://www.swift.org/install/linux/" >&2
    exit 1
fi

if [[ "${1:-}" == "--test" ]]; then
    if [[ ! -x .venv/bin/python ]]; then
        python3 -m venv .venv
    fi
    if ! .venv/bin/python -c 'import pytest, websockets' 2>/dev/null; then
        .venv/bin/python -m pip install -q --disable-pip-version-check -r tests/requirements.txt
    fi
fi
