"""Pairing at a start no one watches (issue 40; docs/server.md "Pairing is a moment"): started
by the service manager — its standard error is the journal stream systemd names in
`JOURNAL_STREAM` — the server keeps pairing closed (the banner and the log say so, and a phone
that proves the secret waits) until `gesturepad pair` opens it; started from a terminal (the
variable inherited, the stream another), it opens at once as before."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess

from testkit import PageSeal, Server, binary, recv_json
from test_proof_handshake import answer_challenge

SECRET = "service-start-" + os.urandom(16).hex()


def journal_stderr(tmp_path, stream: str | None):
    """`serve` whose standard error is a file; JOURNAL_STREAM names that file (`stream`
    "same"), another one ("other"), or is unset (None)."""
    err = open(tmp_path / "stderr", "wb")
    status = os.fstat(err.fileno())
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path)}
    env.pop("JOURNAL_STREAM", None)
    if stream == "same":
        env["JOURNAL_STREAM"] = f"{status.st_dev}:{status.st_ino}"
    elif stream == "other":
        env["JOURNAL_STREAM"] = f"{status.st_dev}:{status.st_ino + 1}"
    return err, env


def proven(ws) -> PageSeal:
    """Proves the secret on `ws` (the first handshake) and returns the connection's seal."""
    _, server_nonce, client = answer_challenge(ws, recv_json(ws), SECRET, "secret")
    assert recv_json(ws)["type"] == "authenticated"
    return PageSeal(hashlib.sha256(SECRET.encode()).digest(), server_nonce, client)


def test_a_service_start_keeps_pairing_closed_until_gesturepad_pair(tmp_path):
    err, env = journal_stderr(tmp_path, "same")
    with Server(token=SECRET, env=env, stderr=err) as server:
        assert "The service manager started this server" in server.stdout()
        with server.connect(token=None, path="/ws?proof=1") as ws:
            seal = proven(ws)
            ws.send(seal.seal({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}))
            held = seal.recv(ws)
            assert held["type"] == "pairing", held  # it waits: pairing is closed
            assert "pairing stays closed" in server.stderr() + server.stdout()
            # `gesturepad url` prints the code but opens nothing (issue 43): no request reaches
            # the server, and it says which command does.
            record = tmp_path / "gesturepad" / "server.json"
            devices_file = tmp_path / "gesturepad" / "devices.json"
            reloads = json.loads(record.read_text()).get("devicesReloads")
            shown = subprocess.run([str(binary()), "url", "--no-qr"], capture_output=True, text=True, timeout=10,
                                   env={**os.environ, "XDG_STATE_HOME": str(tmp_path)})
            assert shown.returncode == 0, shown.stderr
            assert "gesturepad pair opens it" in shown.stdout and "Pairing is open" not in shown.stdout
            # No request was written (the server writes the file itself too: only this field is ours).
            assert json.loads(record.read_text()).get("devicesReloads") == reloads
            if devices_file.exists():
                assert "pairingRequest" not in json.loads(devices_file.read_text())
            opened = subprocess.run([str(binary()), "pair", "--no-qr"], capture_output=True, text=True, timeout=10,
                                    env={**os.environ, "XDG_STATE_HOME": str(tmp_path)})
            assert opened.returncode == 0, opened.stderr
            assert "Pairing is open for 5 minutes" in opened.stdout
            assert [line for line in opened.stdout.splitlines() if line.startswith("  http")] == \
                [line for line in shown.stdout.splitlines() if line.startswith("  http")]
            message = seal.recv(ws, timeout=10)
            while message.get("type") != "welcome":
                message = seal.recv(ws, timeout=10)
            assert message["device"]["id"]
        devices = json.loads((tmp_path / "gesturepad" / "devices.json").read_text())["devices"]
        assert [d["state"] for d in devices] == ["paired"]


def test_a_terminal_start_opens_pairing_at_once(tmp_path):
    err, env = journal_stderr(tmp_path, "other")
    with Server(token=SECRET, env=env, stderr=err) as server:
        assert "The link pairs new phones for 5 minutes" in server.stdout()
        with server.connect(token=None, path="/ws?proof=1") as ws:
            seal = proven(ws)
            assert seal.hello(ws)["type"] == "welcome"
