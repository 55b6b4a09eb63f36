#!/usr/bin/env bash
# Autobahn|Testsuite against the real server, in its conformance mode (`serve --test-echo`).
#
#   tests/autobahn/run.sh            (make autobahn; part of make test)
#
# The suite's fuzzing client (wstest) is Python 2.7 code. This script finds a Python 2.7
# ($AUTOBAHN_PYTHON2, python2.7 on PATH, or pyenv's 2.7.x), installs the pinned suite from PyPI
# into .autobahn/venv the first time (again when requirements-py27.txt changes), starts
# $GESTUREPAD_BIN (default .build/debug/gesturepad, built by make) on 127.0.0.1, runs every
# case over ws:// and then over wss:// (serve --tls, the local CA), stops the server each time (it
# must exit 0), and judges each report with check.py
# against expected.txt. Reports: artifacts/autobahn/{ws,wss}/index.html. About two minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."

here=tests/autobahn
state=.autobahn
base=artifacts/autobahn
bin=${GESTUREPAD_BIN:-.build/debug/gesturepad}
# The last virtualenv that creates Python 2.7 environments; pip comes with it (no download).
virtualenv_pin=virtualenv==16.7.12

fail() { echo "autobahn: $*" >&2; exit 1; }

is_python27() { "$1" -c 'import sys, ssl, zlib; sys.exit(sys.version_info[:2] != (2, 7))' >/dev/null 2>&1; }

find_python27() {
    local candidate
    for candidate in "${AUTOBAHN_PYTHON2:-}" "$(command -v python2.7 || true)" \
        $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/2.7*/bin/python 2>/dev/null | sort -V -r); do
        if [[ -n "$candidate" ]] && is_python27 "$candidate"; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

[[ -x "$bin" ]] || fail "no server binary at $bin (swift build, or set GESTUREPAD_BIN)"

# -- the suite, in its own Python 2.7 virtualenv -------------------------------------------
wanted=$(cat "$here/requirements-py27.txt" <(echo "$virtualenv_pin") | sha256sum | cut -d' ' -f1)
if [[ ! -x "$state/venv/bin/wstest" || "$(cat "$state/venv/.installed" 2>/dev/null)" != "$wanted" ]]; then
    if ! python27=$(find_python27); then
        message="Autobahn|Testsuite needs Python 2.7 with ssl and zlib, and none was found:
  set AUTOBAHN_PYTHON2=/path/to/python2.7, or install one (e.g. pyenv install 2.7.18)."
        # On CI (whose machines have pyenv's 2.7) or when asked, a missing Python 2.7 fails the
        # step; on a developer's fresh Debian (none packaged) it is skipped, loudly.
        if [[ -n "${CI:-}" || -n "${AUTOBAHN_REQUIRED:-}" ]]; then fail "$message"; fi
        echo "autobahn: SKIPPED — $message" >&2
        exit 0
    fi
    echo "autobahn: installing the pinned suite into $state/venv with $python27"
    rm -rf "$state/venv" "$state/bootstrap"
    mkdir -p "$state"
    "$python27" -m pip --version >/dev/null 2>&1 || fail "$python27 has no pip (python2.7 -m ensurepip)"
    PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONWARNINGS=ignore \
        "$python27" -m pip install -q --no-warn-script-location --target "$state/bootstrap" "$virtualenv_pin" \
        || fail "could not install $virtualenv_pin from PyPI"
    PYTHONPATH="$state/bootstrap" "$python27" -m virtualenv -q --no-download "$state/venv" >/dev/null \
        || fail "could not create $state/venv"
    PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONWARNINGS=ignore \
        "$state/venv/bin/python" -m pip install -q -r "$here/requirements-py27.txt" \
        || fail "could not install $here/requirements-py27.txt from PyPI"
    echo "$wanted" > "$state/venv/.installed"
fi

run_suite() {  # scheme (ws | wss): the whole suite against a fresh server, judged
local scheme=$1 report=$base/$1 tls=() env_state=()
rm -rf "$report"
mkdir -p "$report"
if [[ $scheme == wss ]]; then
    # HTTPS / WSS with the local certificate authority, in a state folder of the run's own.
    tls=(--tls)
    env_state=(env "XDG_STATE_HOME=$PWD/$report/state")
fi
# -- the server ----------------------------------------------------------------------------
token=autobahn-$(od -An -N16 -tx1 /dev/urandom | tr -d " \n")
# Only what Autobahn cannot know changes: it expects an echo (--test-echo) and sends messages
# up to 16 MiB (9.1.6) faster than a touchpad would (--max-rate).
"${env_state[@]}" "$bin" serve --host 127.0.0.1 --port 0 --token "$token" --no-qr --control off --public Public "${tls[@]}" \
    --test-echo --max-message-bytes 16777216 --max-rate 1000000 \
    > "$report/server.out" 2> "$report/server.err" &
server=$!
stop_server() { kill -TERM "$server" 2>/dev/null || true; }
trap stop_server EXIT

port=""
for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$report/server.out" | head -1)
    [[ -n "$port" ]] && break
    kill -0 "$server" 2>/dev/null || fail "the server did not start: $(cat "$report/server.err")"
    sleep 0.1
done
[[ -n "$port" ]] || fail "the server printed no port"

cat > "$report/fuzzingclient.json" <<EOF
{
  "options": {"failByDrop": false},
  "outdir": "$PWD/$report",
  "servers": [{"agent": "gesturepad", "url": "$scheme://127.0.0.1:$port/ws?token=$token"}],
  "cases": ["*"],
  "exclude-cases": [],
  "exclude-agent-cases": {}
}
EOF

# -- the run -------------------------------------------------------------------------------
echo "autobahn: running every case over $scheme:// against $bin --test-echo on 127.0.0.1:$port"
started=$SECONDS
status=0
(cd "$report" && PYTHONWARNINGS=ignore timeout 900 "$root/$state/venv/bin/wstest" \
    -m fuzzingclient -s fuzzingclient.json > wstest.log 2>&1) || status=$?
echo "autobahn: wstest finished in $((SECONDS - started)) s (status $status)"

trap - EXIT
kill -TERM "$server" 2>/dev/null || true
server_status=0
wait "$server" || server_status=$?
if [[ $server_status -ne 0 ]]; then
    tail -20 "$report/server.err" >&2
    fail "the server exited with status $server_status during or after the run"
fi
if [[ $status -ne 0 ]]; then
    tail -20 "$report/wstest.log" >&2
    fail "wstest failed (status $status)"
fi

python3 "$here/check.py" "$report/index.json" "$here/expected.txt"
}

root=$PWD
run_suite ws
run_suite wss
