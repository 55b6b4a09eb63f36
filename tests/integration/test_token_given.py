"""A pairing secret the user gives (issue 40; docs/security.md "The pairing secret"): one under
128 bits is refused wherever it comes from (flag, environment, file), with a message that says
how strong it must be; `--token-file` reads it from a file; a `--token` on the command line is
overwritten in the process's own arguments, so other users no longer see it in
`/proc/PID/cmdline`, and the banner says so."""
from __future__ import annotations

import os
import subprocess

from testkit import Server, binary, eventually
from test_config import SERVE, run_cli, write_config

STRONG = "given-secret-" + os.urandom(16).hex()


def test_weak_tokens_are_refused_from_every_source(tmp_path):
    for weak in ("t", "correct-horse", "0123456789abcdef0123456789abcde"):  # the last: 124 bits of hex
        flag = run_cli(tmp_path, *SERVE, "--token", weak)
        assert flag.returncode == 64 and "too weak" in flag.stderr and "128 needed" in flag.stderr, flag.stderr
        assert len(weak) < 5 or weak not in flag.stderr  # the secret is not repeated
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "GESTUREPAD_TOKEN": "short-one"}
    environment = subprocess.run([str(binary()), *SERVE], capture_output=True, text=True, timeout=30, env=env)
    assert environment.returncode != 0 and "too weak" in environment.stderr, environment.stderr
    config = write_config(tmp_path, "server:\n  token: short-one\n")
    file = run_cli(tmp_path, *SERVE, "--config", str(config))
    assert file.returncode == 1 and "too weak" in file.stderr, file.stderr
    # 32 hex digits, what a made token is, and 22 characters of every kind are enough.
    secret = tmp_path / "secret"
    for strong in ("0123456789abcdef0123456789abcdef", "Ab3-Cd4_Ef5.Gh6~Ij7Kl8"):
        secret.write_text(strong + "\n")
        check = run_cli(tmp_path, "check-config", str(write_config(tmp_path, f"server:\n  token: {strong}\n")))
        assert check.returncode == 0, check.stderr


def process_arguments(pid: int) -> bytes:
    with open(f"/proc/{pid}/cmdline", "rb") as arguments:
        return arguments.read()


def test_a_token_on_the_command_line_is_hidden_from_other_users():
    with Server(token=STRONG) as server:
        assert eventually(lambda: STRONG.encode() not in process_arguments(server.process.pid))
        assert b"--token" in process_arguments(server.process.pid)
        assert "hidden there now (prefer --token-file or GESTUREPAD_TOKEN)" in server.stdout()
        # The secret itself is unchanged: it still connects.
        with server.connect(token=STRONG) as ws:
            ws.send('{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844}')
            assert '"welcome"' in ws.recv(timeout=3)


def test_a_token_file_gives_the_secret_and_nothing_shows(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text(STRONG + "\n")
    os.chmod(secret, 0o600)
    with Server(token=None, extra=["--token-file", str(secret)]) as server:
        server.token = STRONG
        assert STRONG.encode() not in process_arguments(server.process.pid)
        assert "hidden there now" not in server.stdout()
        with server.connect(token=STRONG) as ws:
            ws.send('{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844}')
            assert '"welcome"' in ws.recv(timeout=3)
    both = run_cli(tmp_path, *SERVE, "--token", STRONG, "--token-file", str(secret))
    assert both.returncode == 64 and "give one of them" in both.stderr
    missing = run_cli(tmp_path, *SERVE, "--token-file", str(tmp_path / "nosuch"))
    assert missing.returncode == 64 and "cannot read it" in missing.stderr
