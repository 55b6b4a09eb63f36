"""`gesturepad url`: the address and QR code of a server started elsewhere (the systemd user
unit), from server.json and the remembered token in the state directory."""
import json
import os
import signal
import stat
import subprocess
from pathlib import Path

from testkit import Server, binary


def url(server_or_state, *args):
    state = server_or_state.state_home if isinstance(server_or_state, Server) else server_or_state
    env = {k: v for k, v in os.environ.items() if k != "GESTUREPAD_TOKEN"}
    env["XDG_STATE_HOME"] = state
    return subprocess.run([str(binary()), "url", *args], capture_output=True, text=True, env=env, timeout=30)


def address_block(text: str) -> list[str]:
    """The lines from "Open this address" to the first blank line."""
    lines = text.splitlines()
    start = lines.index("Open this address on your phone (same network):")
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    return lines[start:end]


def record_of(server) -> Path:
    return Path(server.state_home) / "gesturepad" / "server.json"


def test_url_prints_the_banner_addresses_of_the_running_server(page_dir):
    with Server(public=page_dir, token=None) as server:
        record = record_of(server)
        assert stat.S_IMODE(record.stat().st_mode) == 0o600
        facts = json.loads(record.read_text())
        assert facts["pid"] == server.process.pid and facts["port"] == server.port
        assert facts["scheme"] == "http" and facts["token"] == "remembered"
        token = (Path(server.state_home) / "gesturepad" / "token").read_text().strip()
        assert token not in record.read_text()
        result = url(server, "--no-qr")
        assert result.returncode == 0, result.stderr
        assert address_block(result.stdout) == address_block(server.stdout())
        assert f"  http://127.0.0.1:{server.port}/#token={token}" in result.stdout.splitlines()
        with_qr = url(server)
        assert f"Or scan this QR code (http://127.0.0.1:{server.port}/#token={token}):" in with_qr.stdout
        assert len(with_qr.stdout.splitlines()) > len(result.stdout.splitlines()) + 15
    # A clean stop removes the record: nothing runs any more.
    assert not record.exists()
    gone = url(server)
    assert gone.returncode == 1 and "No GesturePad server is running" in gone.stderr and gone.stdout == ""


def test_url_after_a_crash_says_the_server_is_gone(page_dir):
    server = Server(public=page_dir, token=None)
    try:
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=10)
        result = url(server)
        assert result.returncode == 1
        assert f"pid {server.process.pid}" in result.stderr and "has stopped" in result.stderr
    finally:
        server.returncode = -9
        for f in (server.out, server.err):
            f.close()
            os.unlink(f.name)


def test_url_with_a_given_token_does_not_reveal_it(page_dir):
    """A token given with --token is never stored: url prints the address without it, and says so."""
    with Server(public=page_dir, token="given-token-Secret0123456789abcdefZ") as server:
        result = url(server, "--no-qr")
        assert result.returncode == 0
        assert f"  http://127.0.0.1:{server.port}/" in result.stdout.splitlines()
        assert "given-token-Secret0123456789abcdefZ" not in result.stdout
        assert "never stored" in result.stdout


def test_a_second_server_hands_the_record_back_when_it_stops(page_dir):
    """The service runs; `make run` starts another server for the same user on another port and
    stops: `gesturepad url` shows the service's address again."""
    with Server(public=page_dir, token=None) as first:
        with Server(public=page_dir, token=None, env={"XDG_STATE_HOME": first.state_home}) as second:
            assert f":{second.port}/" in url(first, "--no-qr").stdout
        assert json.loads(record_of(first).read_text())["pid"] == first.process.pid
        assert f":{first.port}/" in url(first, "--no-qr").stdout
