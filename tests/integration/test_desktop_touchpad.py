"""The desktop's own touchpad settings on the desktop page (docs/server.md "The desktop page"),
read by the real server from the real places the desktops keep them: GNOME's in a real dconf
database through `gsettings` on a session bus of the test's own, KDE Plasma's in `kcminputrc`.
A change shows on the next request after the reading is 2 s old; `applies` is false here (the
touchpad backend needs /dev/uinput: tests/kernel runs it)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from testkit import Server, eventually


def desktop_state(server: Server) -> dict:
    key = (Path(server.state_home) / "gesturepad" / "desktop-key").read_text().strip()
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}/desktop/state",
                                     headers={"x-gesturepad-desktop": key})
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=5) as answer:
        return json.loads(answer.read())


def touchpad_becomes(server: Server, expected: dict, within: float = 10.0) -> dict:
    """Asks the desktop page's state until its touchpad settings hold `expected` (the server
    reads them anew once a reading is 2 s old)."""
    seen: dict = {}

    def holds() -> bool:
        seen.update(desktop_state(server).get("touchpad") or {})
        return all(seen.get(k) == v for k, v in expected.items())

    assert eventually(holds, within=within), (seen, expected)
    return seen


@pytest.fixture
def session_bus(tmp_path):
    """A session bus that activates the real dconf service, and a home of the test's own."""
    daemon = shutil.which("dbus-daemon")
    if daemon is None or shutil.which("gsettings") is None or not Path("/usr/libexec/dconf-service").exists():
        pytest.skip("dbus-daemon, gsettings or dconf-service is missing (scripts/setup.sh --test)")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_RUNTIME_DIR": str(runtime),
           "XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "dconf"}
    process = subprocess.Popen([daemon, "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True,
                               env=dict(os.environ, **env))
    env["DBUS_SESSION_BUS_ADDRESS"] = process.stdout.readline().strip()
    try:
        yield env
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=5)


def gsettings_set(env: dict, key: str, value: str) -> None:
    subprocess.run(["gsettings", "set", "org.gnome.desktop.peripherals.touchpad", key, value], check=True,
                   env=dict(os.environ, **env), timeout=10, capture_output=True)


def test_gnome_touchpad_settings_are_read_from_dconf_and_follow_changes(session_bus):
    gsettings_set(session_bus, "tap-to-click", "false")
    gsettings_set(session_bus, "natural-scroll", "true")
    gsettings_set(session_bus, "speed", "0.25")
    with Server(env=session_bus) as server:
        seen = touchpad_becomes(server, {"desktop": "GNOME", "tapToClick": False, "naturalScrolling": True,
                                         "speed": 0.25})
        assert seen["applies"] is False and "Mouse & Touchpad" in seen["change"]
        gsettings_set(session_bus, "tap-to-click", "true")
        touchpad_becomes(server, {"tapToClick": True})


def test_kde_touchpad_settings_are_read_from_kcminputrc(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "kcminputrc").write_text(
        "[Libinput][1][1][Some other touchpad]\nTapToClick=false\n\n"
        "[Libinput][7504][24866][GesturePad touchpad]\nTapToClick=true\nNaturalScroll=false\n"
        "PointerAcceleration=-0.4\n")
    env = {"XDG_CONFIG_HOME": str(config), "XDG_CURRENT_DESKTOP": "KDE", "SWAYSOCK": None}
    with Server(env=env) as server:
        seen = touchpad_becomes(server, {"desktop": "KDE Plasma", "tapToClick": True, "naturalScrolling": False,
                                         "speed": -0.4})
        assert "disableWhileTyping" not in seen and seen["applies"] is False


def test_a_desktop_keeping_none_shows_none(tmp_path):
    with Server(env={"XDG_CURRENT_DESKTOP": "XFCE", "SWAYSOCK": None}) as server:
        assert "touchpad" not in desktop_state(server)
