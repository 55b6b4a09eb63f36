"""The configuration file found without --config ($XDG_CONFIG_HOME/gesturepad/config.yaml, by
default ~/.config/gesturepad/config.yaml), named in the banner, with hooks whose relative
paths resolve against the file's folder — from any working directory."""
import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from testkit import Server, binary, collect, eventually, load_trace, recv_json, send_paced


def executable(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def play_tap(server) -> list[dict]:
    lines = load_trace("tap_single.jsonl")
    with server.connect() as ws:
        ws.send(lines[0])
        assert recv_json(ws)["type"] == "welcome"
        send_paced(ws, lines[1:])
        return collect(ws, 0.8, types=("gesture",))


def user_config(home: Path) -> Path:
    """~/.config/gesturepad/config.yaml with a tap hook given by a relative path, which writes
    its working directory and the event into files named relatively too."""
    folder = home / ".config" / "gesturepad"
    executable(folder / "hooks" / "on-tap.sh", 'pwd > ran.cwd; cat > ran.json\n')
    config = folder / "config.yaml"
    config.write_text("hooks:\n  - {gesture: tap, run: [hooks/on-tap.sh]}\n")
    return config


def test_user_config_is_used_without_flag_and_hooks_resolve_against_its_folder(page_dir, tmp_path):
    """Started from / with HOME set and no --config: the banner names ~/.config/gesturepad/config.yaml,
    and its hook `hooks/on-tap.sh` is found next to the file and runs there."""
    home = tmp_path / "home"
    config = user_config(home)
    with Server(public=page_dir, cwd="/", env={"HOME": str(home), "XDG_CONFIG_HOME": None}) as server:
        assert f"Configuration: {config} (your configuration file)." in server.stdout()
        gestures = play_tap(server)
        assert any(g["gesture"] == "tap" for g in gestures)
        ran = config.parent / "ran.json"
        assert eventually(lambda: ran.exists() and ran.read_text().strip() != "")
        assert json.loads(ran.read_text())["gesture"] == "tap"
        assert (config.parent / "ran.cwd").read_text().strip() == str(config.parent)
        assert "could not run" not in server.stderr()
    assert not Path("/ran.json").exists()


def test_xdg_config_home_and_flags(page_dir, tmp_path):
    """XDG_CONFIG_HOME moves the user's file; --config overrides it; --no-config reads none."""
    xdg = tmp_path / "xdg"
    (xdg / "gesturepad").mkdir(parents=True)
    (xdg / "gesturepad" / "config.yaml").write_text("server:\n  token: from-xdg-Secret0123456789abcdefZ\n")
    other = tmp_path / "other.yaml"
    other.write_text("server:\n  token: from-flag-Secret0123456789abcdefZ\n")
    env = {"XDG_CONFIG_HOME": str(xdg), "HOME": str(tmp_path / "nohome")}
    with Server(public=page_dir, token=None, env=env) as server:
        assert "#token=from-xdg-Secret0123456789abcdefZ" in server.stdout()
        assert f"Configuration: {xdg}/gesturepad/config.yaml (your configuration file)." in server.stdout()
    with Server(public=page_dir, token=None, env=env, extra=["--config", str(other)]) as server:
        assert "#token=from-flag-Secret0123456789abcdefZ" in server.stdout()
        assert f"Configuration: {other} (--config)." in server.stdout()
    with Server(public=page_dir, token="t-Secret0123456789abcdefZ", env=env, extra=["--no-config"]) as server:
        assert "Configuration: none" in server.stdout()


def test_no_config_anywhere_says_so(page_dir, tmp_path):
    """With no file anywhere, the banner says so and names both places it looked."""
    if os.path.exists("/etc/gesturepad/config.yaml"):
        pytest.skip("this machine has a system-wide /etc/gesturepad/config.yaml")
    with Server(public=page_dir, env={"HOME": str(tmp_path)}) as server:
        assert (f"Configuration: none (no {server.env['XDG_CONFIG_HOME']}/gesturepad/config.yaml or "
                "/etc/gesturepad/config.yaml); every setting is its default.") in server.stdout()


def test_check_config_defaults_to_the_user_file(tmp_path):
    """`check-config` without FILE checks the file serve would read, resolving the hook's
    relative program against the file's folder (no "not found" warning)."""
    home = tmp_path / "home"
    config = user_config(home)
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    env["HOME"] = str(home)
    result = subprocess.run([str(binary()), "check-config"], capture_output=True, text=True, env=env, cwd="/",
                            timeout=30)
    assert result.returncode == 0, result.stderr
    assert f"{config}: OK" in result.stdout
    assert "not found" not in result.stderr
