"""A headless GNOME session nobody else sees, for tests/gnome: gnome-shell (mutter) with its
RemoteDesktop portal, on buses, runtime and home directories of the test's own.

`HeadlessGnome()` starts, in order (about 3–6 s):
  1. a temp folder with XDG_RUNTIME_DIR (0700), HOME, XDG_CONFIG_HOME / DATA / CACHE / STATE;
  2. two `dbus-daemon`s: the session bus (the stock session configuration, so that the AT-SPI
     bus and the portal backends can be activated) and an empty one standing in for the system
     bus (without any system bus gnome-shell exits at start when /run/systemd/seats exists);
  3. a shell extension whose `enable()` sets `global.context.unsafe_mode`: GNOME 43 has no
     `--unsafe-mode` switch, and `org.gnome.Shell.Eval` (the tests' ground truth) refuses
     without it; it is switched on with gsettings (the keyfile backend, in the temp folder),
     with the US layout as the only input source;
  4. `gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800`, until `Eval`
     answers; then the overview (the shell starts in it; it hides dialogs) is closed;
  5. xdg-desktop-portal-gnome and xdg-desktop-portal, until RemoteDesktop answers on
     `org.freedesktop.portal.Desktop`;
  6. the agent (gnome_agent.py, under /usr/bin/python3): Eval and AT-SPI for the tests.

`close()` ends every process it started and every one the buses activated (found by the
private XDG_RUNTIME_DIR in /proc/PID/environ), by PID, never by name, and removes the folder.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from testkit import dbus_config, end_activated, private_session_folders

HERE = Path(__file__).resolve().parent
SYSTEM_PYTHON = "/usr/bin/python3"
EXTENSION_UUID = "gesturepad-test-unsafe@gesturepad.invalid"
MONITOR = (1280, 800)
PROGRAMS = {
    "gnome-shell": "gnome-shell",
    "xdg-desktop-portal": "/usr/libexec/xdg-desktop-portal",
    "xdg-desktop-portal-gnome": "/usr/libexec/xdg-desktop-portal-gnome",
    "dbus-daemon": "dbus-daemon",
}

EXTENSION_JS = """// GesturePad's tests only: lets org.gnome.Shell.Eval answer (GNOME 43 has no --unsafe-mode).
function init() {
    return {
        enable() { global.context.unsafe_mode = true; },
        disable() { global.context.unsafe_mode = false; },
    };
}
"""

# Polled until true: once the shell has started up (it opens the overview at the end of its
# start-up, which hides dialogs and takes the keys), closes the overview when it is open.
CLOSE_OVERVIEW = """(() => {
    if (Main.layoutManager._startingUp || Main.overview.animationInProgress)
        return false;
    if (Main.overview.visible) {
        Main.overview.hide();
        return false;
    }
    return true;
})()"""

def missing_programs() -> list[str]:
    """What the session needs and this machine lacks (setup.sh --test installs them)."""
    missing = [name for name, path in PROGRAMS.items() if not shutil.which(path)]
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        missing.append(SYSTEM_PYTHON)
    else:
        probe = subprocess.run(
            [SYSTEM_PYTHON, "-c", "import dbus, gi; gi.require_version('Atspi', '2.0'); "
             "from gi.repository import Atspi"], capture_output=True, text=True)
        if probe.returncode != 0:
            missing.append("python3-dbus / python3-gi / gir1.2-atspi-2.0 for /usr/bin/python3")
    return missing


class GnomeError(RuntimeError):
    pass


class HeadlessGnome:
    """One headless GNOME session; `env` is what a client of it needs (the session bus,
    WAYLAND_DISPLAY, XDG_RUNTIME_DIR…)."""

    def __init__(self, layout: str = "us", timeout: float = 30.0):
        self.root = Path(tempfile.mkdtemp(prefix="gesturepad-gnome-"))
        self.processes: list[subprocess.Popen] = []
        self.logs: dict[str, Path] = {}
        self.agent: subprocess.Popen | None = None
        try:
            self._start(layout, timeout)
        except BaseException:
            self.close()
            raise

    # -- start ------------------------------------------------------------------------------------
    def _start(self, layout: str, timeout: float) -> None:
        started = time.monotonic()
        self.env = private_session_folders(self.root)
        runtime = Path(self.env["XDG_RUNTIME_DIR"])
        dirs = {"data": Path(self.env["XDG_DATA_HOME"]), "config": Path(self.env["XDG_CONFIG_HOME"])}
        self.env.update({
            "XDG_CURRENT_DESKTOP": "GNOME",
            "XDG_SESSION_DESKTOP": "gnome",
            "GSETTINGS_BACKEND": "keyfile",
            "NO_AT_BRIDGE": "0",
            "GTK_A11Y": "atspi",
        })
        self.session_bus = self._bus("session", ["--session"], runtime / "bus")
        system_config = self.root / "system-bus.conf"
        system_config.write_text(dbus_config("system", f"unix:path={runtime / 'system_bus_socket'}"))
        self.system_bus = self._bus("system", [f"--config-file={system_config}"], runtime / "system_bus_socket")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.session_bus
        self.env["DBUS_SYSTEM_BUS_ADDRESS"] = self.system_bus

        extension = dirs["data"] / "gnome-shell" / "extensions" / EXTENSION_UUID
        extension.mkdir(parents=True)
        (extension / "metadata.json").write_text(json.dumps({
            "uuid": EXTENSION_UUID, "name": "GesturePad test: unsafe mode",
            "description": "Lets org.gnome.Shell.Eval answer, for GesturePad's tests.",
            "shell-version": ["43", "44", "45", "46", "47", "48"]}))
        (extension / "extension.js").write_text(EXTENSION_JS)
        self.gsettings("org.gnome.shell", "enabled-extensions", f"['{EXTENSION_UUID}']")
        self.gsettings("org.gnome.shell", "disable-extension-version-validation", "true")
        self.gsettings("org.gnome.shell", "welcome-dialog-last-shown-version", "'999'")
        self.set_layouts([layout])

        width, height = MONITOR
        self._spawn("gnome-shell", ["gnome-shell", "--headless", "--wayland", "--no-x11",
                                    "--virtual-monitor", f"{width}x{height}"])
        self.env["WAYLAND_DISPLAY"] = "wayland-0"
        self.agent = subprocess.Popen(
            [SYSTEM_PYTHON, str(HERE / "gnome_agent.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._log("agent"), env=self.env, text=True, start_new_session=True)
        self._until(lambda: self._try_eval("true"), started + timeout, "gnome-shell's Eval to answer")
        self._until(lambda: self.eval(CLOSE_OVERVIEW), started + timeout, "the start-up overview to close")

        self.eval((HERE / "recorder.js").read_text())
        self._spawn("xdg-desktop-portal-gnome", [PROGRAMS["xdg-desktop-portal-gnome"]])
        self._spawn("xdg-desktop-portal", [PROGRAMS["xdg-desktop-portal"]])
        self._until(self._portal_ready, started + timeout, "the RemoteDesktop portal")
        self.start_seconds = time.monotonic() - started

    def _log(self, name: str):
        path = self.root / f"{name}.log"
        self.logs[name] = path
        return open(path, "ab")

    def _bus(self, name: str, options: list[str], socket_path: Path) -> str:
        address = f"unix:path={socket_path}"
        argv = ["dbus-daemon", "--nofork", "--nopidfile", *options, f"--address={address}"]
        if "--session" not in options:
            argv.remove(f"--address={address}")  # the configuration file names the socket
        process = subprocess.Popen(argv, env=self.env, stdout=subprocess.DEVNULL, stderr=self._log(f"{name}-bus"),
                                   start_new_session=True)
        self.processes.append(process)
        self._until(socket_path.exists, time.monotonic() + 10, f"the {name} bus")
        return address

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen:
        process = subprocess.Popen(argv, env=self.env, stdout=self._log(name), stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def _until(self, condition, deadline: float, what: str) -> None:
        while True:
            if condition():
                return
            for process in self.processes:
                if process.poll() is not None and process.args[0] in ("gnome-shell",):
                    raise GnomeError(f"{process.args[0]} exited ({process.returncode}) before {what}:\n"
                                     + self.log_tail("gnome-shell"))
            if time.monotonic() > deadline:
                raise GnomeError(f"timed out waiting for {what}\n" + self.log_tail("gnome-shell"))
            time.sleep(0.05)

    def _try_eval(self, js: str) -> bool:
        answer = self._ask({"op": "eval", "js": js})
        return bool(answer.get("ok") and answer.get("value"))

    def _portal_ready(self) -> bool:
        result = subprocess.run(
            ["dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.portal.Desktop",
             "/org/freedesktop/portal/desktop", "org.freedesktop.DBus.Properties.Get",
             "string:org.freedesktop.portal.RemoteDesktop", "string:AvailableDeviceTypes"],
            env=self.env, capture_output=True, text=True, timeout=10)
        return result.returncode == 0

    # -- use --------------------------------------------------------------------------------------
    def gsettings(self, schema: str, key: str, value: str) -> None:
        subprocess.run(["gsettings", "set", schema, key, value], env=self.env, check=True,
                       capture_output=True, timeout=10)

    def set_layouts(self, layouts: list[str]) -> None:
        """The input sources (XKB layouts), the first one active."""
        sources = ", ".join(f"('xkb', '{layout}')" for layout in layouts)
        self.gsettings("org.gnome.desktop.input-sources", "sources", f"[{sources}]")

    def _ask(self, request: dict) -> dict:
        assert self.agent is not None and self.agent.stdin is not None and self.agent.stdout is not None
        self.agent.stdin.write(json.dumps(request) + "\n")
        self.agent.stdin.flush()
        line = self.agent.stdout.readline()
        if not line:
            raise GnomeError("the agent stopped: " + self.log_tail("agent"))
        return json.loads(line)

    def eval(self, js: str):
        """Runs `js` in gnome-shell; returns what it evaluates to (Eval answers in JSON)."""
        answer = self._ask({"op": "eval", "js": js})
        if not answer.get("ok"):
            raise GnomeError(answer.get("error"))
        return answer["value"]

    def pointer(self) -> tuple[int, int]:
        x, y, _ = self.eval("global.get_pointer()")
        return x, y

    def events(self) -> list[dict]:
        """What reached the stage since the last call (recorder.js), in order; empties the log."""
        return self.eval("global._gesturepadEvents.splice(0)")

    def wait_events(self, predicate, timeout: float = 3.0) -> list[dict]:
        """Collects events until `predicate(all collected)` holds or `timeout` passes; returns
        them all (the caller asserts on them)."""
        collected: list[dict] = []
        deadline = time.monotonic() + timeout
        while True:
            collected += self.events()
            if predicate(collected) or time.monotonic() > deadline:
                return collected
            time.sleep(0.02)

    def wait_for(self, js: str, timeout: float = 3.0):
        """Polls `js` until it is truthy; returns its last value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.eval(js)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.02)

    def warp(self, x: int, y: int) -> None:
        """Puts the pointer at (x, y) and waits until the compositor reports it there."""
        self.eval(f"imports.gi.Clutter.get_default_backend().get_default_seat().warp_pointer({x}, {y}), true")
        self.wait_for(f"(([x, y]) => x === {x} && y === {y})(global.get_pointer())")
        assert self.pointer() == (x, y), f"the pointer did not go to {x}, {y}: {self.pointer()}"

    def buttons_held(self) -> int:
        """The compositor's button mask (Clutter: 0x100 button 1, 0x200 2, 0x400 3)."""
        return self.eval("global.get_pointer()[2]") & 0x1F00

    def remote_sessions(self) -> int:
        """RemoteDesktop sessions the compositor runs now."""
        return self.eval("global._gesturepadHandles.length")

    def stop_remote_sessions(self) -> int:
        """Ends every RemoteDesktop session from the compositor's side, as the shell's "Stop"
        does; returns how many there were."""
        return self.eval("global._gesturepadHandles.map(h => h.stop()).length")

    def hide_overview(self) -> None:
        assert self.wait_for(CLOSE_OVERVIEW), "the overview did not close"

    def portal_pid(self) -> int | None:
        """The PID of the process that owns org.freedesktop.portal.Desktop now, if any."""
        result = subprocess.run(
            ["dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
             "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID",
             "string:org.freedesktop.portal.Desktop"], env=self.env, capture_output=True, text=True, timeout=10)
        return int(result.stdout.split()[-1]) if result.returncode == 0 else None

    def monitor(self, member: str) -> "CallMonitor":
        """Counts the method calls `member` of the RemoteDesktop portal from now on."""
        return CallMonitor(self.env, member)

    def answer_dialog(self, answer: str = "accept", timeout: float = 10.0) -> bool:
        """Accepts (or cancels) the RemoteDesktop dialog; False when none appeared in time."""
        reply = self._ask({"op": "dialog", "answer": answer, "timeout": timeout})
        if not reply.get("ok"):
            raise GnomeError(reply.get("error"))
        return reply["found"]

    def dialog_open(self) -> bool:
        return self._ask({"op": "dialog-open"})["open"]

    def log_tail(self, name: str, size: int = 3000) -> str:
        path = self.logs.get(name)
        if path is None or not path.exists():
            return ""
        return path.read_bytes()[-size:].decode(errors="replace")

    def log_text(self, name: str) -> str:
        path = self.logs.get(name)
        return path.read_bytes().decode(errors="replace") if path and path.exists() else ""

    # -- teardown ---------------------------------------------------------------------------------
    def _own_pids(self) -> set[int]:
        return {p.pid for p in self.processes} | ({self.agent.pid} if self.agent else set())

    def close(self) -> None:
        if self.agent is not None and self.agent.poll() is None:
            try:
                self.agent.stdin.close()
                self.agent.wait(timeout=3)
            except (OSError, subprocess.TimeoutExpired):
                self.agent.kill()
                self.agent.wait()
        # Newest first: the portals, the shell, then the buses.
        for process in reversed(self.processes):
            _terminate(process)
        end_activated(self.root / "runtime", self._own_pids())
        shutil.rmtree(self.root, ignore_errors=True)


class CallMonitor:
    """`dbus-monitor` on the session's bus, counting calls of one RemoteDesktop method."""

    def __init__(self, env: dict[str, str], member: str):
        self.member = member
        self.log = tempfile.NamedTemporaryFile(prefix="gesturepad-monitor-", delete=False)
        rule = f"type='method_call',interface='org.freedesktop.portal.RemoteDesktop',member='{member}'"
        self.process = subprocess.Popen(["dbus-monitor", "--session", rule], env=env, stdout=self.log,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        # dbus-monitor prints the NameAcquired signal of its own connection once it listens.
        deadline = time.monotonic() + 5
        while b"NameAcquired" not in Path(self.log.name).read_bytes() and time.monotonic() < deadline:
            time.sleep(0.02)

    def count(self) -> int:
        return Path(self.log.name).read_bytes().count(f"member={self.member}".encode())

    def close(self) -> None:
        _terminate(self.process)
        self.log.close()
        os.unlink(self.log.name)


def _terminate(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
