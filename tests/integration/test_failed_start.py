"""A start that fails part-way stops what it had started (issue 43 item 5; `ServeTeardown`):
whichever step fails — the recorder's folder, the control backend, the listening port — the
`pipe` hook the sinks started before it is ended with the server, not left running on its own.
The hidden `--test-wait-for-hooks` makes the start go on only once the hook's process runs, so
each step fails with a hook to end (without it the failure may come first)."""
from __future__ import annotations

import os
import socket
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from testkit import binary, private_env

HOOK = """\
#!/bin/sh
# A pipe hook that says it started, then does not read its events and lives on past their
# end of file: only the server's teardown (its process group killed) ends it.
echo $$ > "$(dirname "$0")/hook.pid"
exec sleep 60
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def hook_process(pid: int, hook: Path) -> bool:
    """Whether process `pid` runs the hook script (its shell, or the `sleep` it became)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return False
    return any(arg.endswith(b"hook.sh") for arg in argv) or (cwd == str(hook.parent) and argv[:1] == [b"sleep"])


@pytest.mark.parametrize("step", ["recorder", "control", "port"])
def test_a_failed_step_leaves_no_hook_behind(tmp_path, step):
    hook = tmp_path / "hook.sh"
    hook.write_text(HOOK)
    hook.chmod(0o755)
    config = tmp_path / "config.yaml"
    config.write_text(textwrap.dedent("""\
        hooks:
          - name: lingering
            gesture: tap
            pipe: [./hook.sh]
        """))
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1] if step == "port" else 0
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the recordings' folder should be")
    args = [str(binary()), "serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr", "--no-auth",
            "--config", str(config), "--test-wait-for-hooks"]
    env = private_env()
    if step == "recorder":
        args += ["--record", str(blocked / "sessions")]
    if step == "control":
        args += ["--control", "x11"]
        env["DISPLAY"] = ":97"  # no X server there
    else:
        args += ["--control", "off"]
    try:
        run = subprocess.run(args, env=env, capture_output=True, text=True, timeout=30)
    finally:
        busy.close()
    assert run.returncode != 0, f"the server started despite the failing {step}: {run.stderr}"
    assert "did not start" not in run.stderr, run.stderr
    # The process started: its script may not have written its pid yet when the group was
    # killed, so it is looked for by its command line too.
    pid_file = tmp_path / "hook.pid"
    pids = [int(pid_file.read_text())] if pid_file.exists() else []
    pids += [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and hook_process(int(p.name), hook)]
    deadline = time.monotonic() + 2
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)  # a killed process is reaped by init: not a timer of ours
    left = [pid for pid in pids if alive(pid)]
    assert not left, f"the pipe hook {left} outlived a start that failed at the {step}: {run.stderr}"
