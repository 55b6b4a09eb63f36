# Sourced by bench/run.sh and bench/soak.sh (needs `say`): sets PYTHON, unless given, to a
# Python that can import $1 (a websockets module): the project's .venv (scripts/setup.sh
# --test makes it) if it has it, else python3 if it has, else websockets is pip-installed into
# .venv (created if missing) unless BENCH_NO_INSTALL is set.
bench_python() {
    local module=$1
    [ -n "${PYTHON:-}" ] && return 0
    if [ -x .venv/bin/python ] && .venv/bin/python -c "import $module" 2>/dev/null; then
        PYTHON=.venv/bin/python
    elif python3 -c "import $module" 2>/dev/null; then
        PYTHON=python3
    elif [ -z "${BENCH_NO_INSTALL:-}" ]; then
        say "installing websockets (pip, into .venv)"
        [ -x .venv/bin/python ] || python3 -m venv .venv >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check 'websockets>=13' >&2 || true
        PYTHON=.venv/bin/python
    else
        PYTHON=python3
    fi
}
