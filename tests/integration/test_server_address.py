"""Where the server listens stays where paired phones expect it (issue 42): the shipped example
configuration moves nothing; a reload that changes `server.port` says it needs a restart and
keeps the socket; a start on another port than the last run's tells, in the banner, that paired
phones must be pointed at the new address (docs/server.md "What you see at start",
docs/outputs.md "Reloading the configuration"). Real server, real sockets, temp state folders."""
import json
import os
import shutil
import signal
import socket
import tempfile
from pathlib import Path

import pytest

from testkit import REPO, Server, eventually, free_port, hello

DEFAULT_PORT = 8765
SECRET = "address-secret-1-Secret0123456789abcdefZ"
MOVED = "The port changed"


def listening(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def record(server) -> dict:
    """The running server's server.json (port, host)."""
    path = Path(server.state_home) / "gesturepad" / "server.json"
    assert eventually(path.exists), "no server.json"
    return json.loads(path.read_text())


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("::", port))
            return True
        except OSError:
            return False


def test_the_example_configuration_keeps_the_server_where_it_was(tmp_path):
    """Copied to ~/.config/gesturepad/config.yaml as the docs say, examples/gesturepad.yaml
    leaves the server on the port and interfaces it has without any file."""
    if not port_is_free(DEFAULT_PORT):
        pytest.skip(f"port {DEFAULT_PORT} is in use on this machine: the default address cannot be tried")
    without = tmp_path / "without"
    with_example = tmp_path / "with"
    (with_example / "gesturepad").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "gesturepad.yaml", with_example / "gesturepad" / "config.yaml")
    places = []
    for home in (without, with_example):
        home.mkdir(exist_ok=True)
        with Server(port=DEFAULT_PORT, address_flags=False, env={"XDG_CONFIG_HOME": str(home)}) as server:
            if home == with_example:
                assert f"Configuration: {with_example}/gesturepad/config.yaml" in server.stdout(), server.stdout()
            else:
                assert "Configuration: none" in server.stdout(), server.stdout()
            assert f"listening on port {DEFAULT_PORT}," in server.stdout()
            places.append((record(server)["port"], record(server).get("host")))
    assert places[0] == places[1] == (DEFAULT_PORT, None)


def test_a_reload_that_changes_the_port_says_it_needs_a_restart(tmp_path):
    """SIGHUP after `server.port` changed in the file: a warning names the old and new port and
    says a restart is needed; the server keeps listening on the old port, not the new one, and
    the rest of the file is taken as before."""
    port, other = free_port(), free_port()
    config = tmp_path / "config.yaml"
    config.write_text(f"server:\n  host: 127.0.0.1\n  port: {port}\ngestures:\n  tapMaxDuration: 250\n")
    with Server(port=port, address_flags=False, extra=["--config", str(config)]) as server:
        config.write_text(f"server:\n  host: 127.0.0.1\n  port: {other}\ngestures:\n  tapMaxDuration: 400\n")
        server.process.send_signal(signal.SIGHUP)
        assert eventually(lambda: "configuration reloaded" in server.stderr()), server.stderr()
        err = server.stderr()
        assert f"server.port changed from {port} to {other}" in err, err
        assert "until it is restarted" in err and "pointed at the new address" in err, err
        assert listening(port) and not listening(other)
        with server.connect() as ws:
            assert hello(ws)["config"]["tapMaxDuration"] == 400, "the reload itself still happened"


def reload_stderr(tmp_path, before: str, after: str) -> tuple[str, int]:
    """A server (--port / --host given as flags) started with configuration `before`, then
    reloaded with `after`: its stderr once the reload is acknowledged, and its port."""
    config = tmp_path / "config.yaml"
    config.write_text(before)
    with Server(extra=["--config", str(config)]) as server:
        config.write_text(after)
        server.process.send_signal(signal.SIGHUP)
        assert eventually(lambda: "configuration reloaded" in server.stderr()), server.stderr()
        return server.stderr(), server.port


def test_a_reload_with_the_port_given_as_a_flag_says_the_flag_decides(tmp_path):
    """With --port on the command line, the file's port never applies: the warning says so
    rather than asking for a restart that would change nothing."""
    err, port = reload_stderr(tmp_path, "server:\n  port: 9001\n", "server:\n  port: 9002\n")
    assert "server.port changed from 9001 to 9002" in err, err
    assert f"--port {port} on the command line decides" in err and "until it is restarted" not in err


def test_a_reload_that_leaves_the_address_says_nothing_of_a_restart(tmp_path):
    err, _ = reload_stderr(tmp_path, "gestures:\n  tapMaxDuration: 250\n", "gestures:\n  tapMaxDuration: 300\n")
    assert "restart" not in err and "server.port" not in err
