"""Pairing that lasts (the remembered token), --version, and an honest start-up."""
import json
import os
import re
import shutil
import subprocess
import time

from pathlib import Path

import pytest

from testkit import REPO, binary, free_port, hello


def serve(state_home, *extra, timeout=10.0):
    """Starts `gesturepad serve` without --token; returns (process, port, token from the banner)."""
    port = free_port()
    env = dict(os.environ, XDG_STATE_HOME=str(state_home))
    env.pop("GESTUREPAD_TOKEN", None)
    process = subprocess.Popen([str(binary()), "serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr",
                                "--control", "off", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    lines = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("Press Ctrl-C"):
            break
    banner = "".join(lines)
    match = re.search(r"#token=([0-9a-f]+)", banner)
    assert match, f"no token in the banner: {banner!r} {process.stderr.read() if process.poll() is not None else ''}"
    return process, port, match.group(1), banner


def stop(process):
    process.terminate()
    process.wait(timeout=10)


def test_token_is_remembered_across_restarts(tmp_path):
    first, _, token1, banner1 = serve(tmp_path)
    stop(first)
    assert "The pairing secret is new" in banner1
    second, port, token2, banner2 = serve(tmp_path)
    try:
        assert token2 == token1
        assert "remembered" in banner2
        from websockets.sync.client import connect
        with connect(f"ws://127.0.0.1:{port}/ws?token={token1}") as ws:
            assert hello(ws)["type"] == "welcome"
    finally:
        stop(second)
    folder = tmp_path / "gesturepad"
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    assert oct((folder / "token").stat().st_mode & 0o777) == "0o600"
    assert (folder / "token").read_text().strip() == token1


def test_new_token_replaces_and_refuses_the_old(tmp_path):
    first, _, old, _ = serve(tmp_path)
    stop(first)
    second, port, new, banner = serve(tmp_path, "--new-token")
    try:
        assert new != old and "The pairing secret is new" in banner
        from websockets.sync.client import connect
        from websockets.exceptions import InvalidStatus
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}/ws?token={old}")
        assert refused.value.response.status_code == 403
        with connect(f"ws://127.0.0.1:{port}/ws?token={new}") as ws:
            assert hello(ws)["type"] == "welcome"
    finally:
        stop(second)
    assert (tmp_path / "gesturepad" / "token").read_text().strip() == new


def test_version_is_one_version_everywhere(tmp_path):
    out = subprocess.run([str(binary()), "--version"], capture_output=True, text=True, timeout=10)
    assert out.returncode == 0
    version = out.stdout.strip()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    process, port, token, _ = serve(tmp_path)
    try:
        from websockets.sync.client import connect
        with connect(f"ws://127.0.0.1:{port}/ws?token={token}") as ws:
            assert hello(ws)["server"] == f"gesturepad/{version}"
    finally:
        stop(process)


def fails_fast(args, tmp_path, user=None):
    """Runs serve expecting a start-up failure: returns (exit status, stderr lines, seconds)."""
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path))
    command = [str(binary()), "serve", "--no-qr", "--control", "off", "--token", "t-Secret0123456789abcdefZ", *args]
    if user:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    start = time.monotonic()
    run = subprocess.run(command, capture_output=True, text=True, timeout=10, env=env, cwd=REPO)
    return run.returncode, [l for l in run.stderr.splitlines() if l.strip()], time.monotonic() - start, run.stdout


def test_an_address_the_machine_lacks_fails_fast(tmp_path):
    status, lines, seconds, stdout = fails_fast(["--host", "10.9.9.9", "--port", str(free_port())], tmp_path)
    assert status != 0 and seconds < 1.0
    assert lines == ["Error: cannot listen on 10.9.9.9 port " + lines[0].split(" port ")[1].split(":")[0]
                     + ": 10.9.9.9 is not an address of this machine"]
    assert "listening" not in stdout


def test_a_port_in_use_fails_fast(tmp_path, server):
    status, lines, seconds, stdout = fails_fast(["--host", "127.0.0.1", "--port", str(server.port)], tmp_path)
    assert status != 0 and seconds < 1.0
    assert len(lines) == 1 and f"port {server.port} is in use" in lines[0]
    assert "listening" not in stdout


def test_a_port_held_by_gesturepad_itself_says_so(server):
    """A second `serve` with the same state directory, on the port the first one serves: it
    names GesturePad, its pid and `gesturepad url`, not "another program" (issue 42)."""
    status, lines, seconds, stdout = fails_fast(["--port", str(server.port)], Path(server.state_home))
    assert status != 0 and seconds < 1.0
    assert len(lines) == 1 and lines[0].startswith(f"Error: GesturePad already serves on port {server.port} (pid "), lines
    assert "gesturepad url" in lines[0] and "another program" not in lines[0]
    assert "listening" not in stdout


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to drop to another user")
def test_a_privileged_port_as_non_root_fails_fast(tmp_path):
    os.chmod(tmp_path, 0o777)
    status, lines, seconds, stdout = fails_fast(["--host", "127.0.0.1", "--port", "81"], tmp_path, user=65534)
    assert status != 0 and seconds < 1.0
    assert len(lines) == 1 and "port 81 is privileged" in lines[0], lines


def test_token_guessing_is_rate_limited(server):
    """Ten wrong tokens from one address are refused 403; the next attempt gets 429, even with the right token."""
    from testkit import RawClient
    statuses = []
    for i in range(11):
        client = RawClient(server.port, f"/ws?token=guess{i}")
        statuses.append(client.status)
        client.close()
    assert statuses[:10] == [403] * 10 and statuses[10] == 429
    client = RawClient(server.port, f"/ws?token={server.token}")
    assert client.status == 429
    client.close()
    assert server.token not in server.stderr(), "the token must never be logged"
