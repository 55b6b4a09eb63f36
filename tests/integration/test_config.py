"""Server settings from the configuration file, and flags over them; a bad file."""
import os
import subprocess

import pytest

from testkit import InvalidStatus, Server, binary, hello, sinks_available

pytestmark = pytest.mark.skipif(not sinks_available(), reason="the configuration file (output layer) has not landed")


def write_config(tmp_path, text):
    path = tmp_path / "gesturepad.yaml"
    path.write_text(text)
    return path


def test_file_settings_apply_and_flags_override(page_dir, tmp_path):
    config = write_config(tmp_path, "server:\n  token: file-token-Secret0123456789abcdefZ\n  limits:\n    maxConnections: 1\n")
    with Server(public=page_dir, token=None, extra=["--config", str(config)]) as server:
        assert "#token=file-token-Secret0123456789abcdefZ" in server.stdout()
        with server.connect(token="file-token-Secret0123456789abcdefZ") as first:
            assert hello(first)["type"] == "welcome"
            with pytest.raises(InvalidStatus) as refused:
                server.connect(token="file-token-Secret0123456789abcdefZ")
            assert refused.value.response.status_code == 503
    with Server(public=page_dir, token="flag-token-Secret0123456789abcdefZ", extra=["--config", str(config), "--max-connections", "2"]) as server:
        assert "#token=flag-token-Secret0123456789abcdefZ" in server.stdout()
        with server.connect(token="flag-token-Secret0123456789abcdefZ") as first, server.connect(token="flag-token-Secret0123456789abcdefZ") as second:
            assert hello(first)["type"] == "welcome"
            assert hello(second)["type"] == "welcome"


def test_file_public_folder_is_relative_to_the_file(page_dir, tmp_path):
    config = write_config(tmp_path, "server:\n  public: page\n")
    assert (tmp_path / "page" / "index.html").exists()
    with Server(public=None, extra=["--config", str(config)], drop_public=True) as server:
        status, _, body = server.get("/")
        assert status == 200 and b"GesturePad test page" in body


def run_cli(tmp_path, *args):
    """`gesturepad ARGS` with a private state and configuration home; the finished process."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env.pop("GESTUREPAD_TOKEN", None)
    return subprocess.run([str(binary()), *args], capture_output=True, text=True, timeout=30, env=env)


SERVE = ("serve", "--host", "127.0.0.1", "--port", "0", "--control", "off", "--no-qr")


@pytest.mark.parametrize("text", [
    "server:\n  port: high\ngestures:\n  slopp: 3\n",  # the reader's errors
    "server:\n  token: \"a b\"\n",                      # a value the server refuses
])
def test_bad_file_exits_1_like_check_config(tmp_path, text):
    """`serve --config bad.yaml` exits 1 with the file's problems and no usage text, as
    `check-config` does; the same mistake as a flag stays a usage error (64)."""
    config = write_config(tmp_path, text)
    serve = run_cli(tmp_path, *SERVE, "--config", str(config))
    check = run_cli(tmp_path, "check-config", str(config))
    assert serve.returncode == 1, serve.stderr
    assert "Usage" not in serve.stdout + serve.stderr and "--help" not in serve.stderr
    assert "GesturePad is listening" not in serve.stdout
    problems = [line for line in serve.stderr.splitlines() if str(config) in line]
    assert problems and all("error" in line for line in problems), serve.stderr
    if check.returncode == 1:  # a reader's error: the very lines check-config prints
        assert serve.stderr == check.stderr
    flag = run_cli(tmp_path, *SERVE, "--token", "a b")
    assert flag.returncode == 64 and "Usage" in flag.stderr


@pytest.mark.parametrize("args, says", [
    (["--keyboard-layout", "nosuch"], 'keyboard layout "nosuch": XKB has no such layout'),
    (["--keyboard-layout", "us,de"], 'keyboard layout "us,de": write one XKB layout'),
])
def test_a_keyboard_layout_xkb_does_not_know_stops_the_start(tmp_path, args, says):
    """`--keyboard-layout` (and `control.keyboardLayout`) is checked before any backend is
    chosen: a name XKB cannot compile stops the start with one line, whatever `--control`."""
    serve = run_cli(tmp_path, *SERVE, *args)
    assert serve.returncode == 1, serve.stderr
    lines = serve.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: --keyboard-layout: {says}"), serve.stderr
    assert "GesturePad is listening" not in serve.stdout
    config = write_config(tmp_path, "control:\n  keyboardLayout: nosuch\n")
    from_file = run_cli(tmp_path, *SERVE, "--config", str(config))
    assert from_file.returncode == 1 and 'keyboard layout "nosuch"' in from_file.stderr, from_file.stderr
