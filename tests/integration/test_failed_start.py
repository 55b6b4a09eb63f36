"""A start that fails part-way stops what it had started (issue 43 item 5; `StartTeardown`):
whichever step fails — the recorder's folder, the control backend, the listening port — the
`pipe` hook the sinks started before it is ended with the server, not left running on its own."""
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
# A pipe hook that says it started, then reads its events until EOF.
echo $$ > "$(dirname "$0")/hook.pid"
exec cat > /dev/null
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


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
            "--config", str(config)]
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
    pid_file = tmp_path / "hook.pid"
    if pid_file.exists():  # the hook had started before the failure: it must be gone too
        pid = int(pid_file.read_text())
        deadline = time.monotonic() + 2
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not alive(pid), f"the pipe hook {pid} outlived a start that failed at the {step}: {run.stderr}"
