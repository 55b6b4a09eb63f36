"""A headless KDE Plasma session nobody else sees, for tests/kde: kwin_wayland with KDE's
RemoteDesktop portal, on buses, runtime and home directories of the test's own.

`HeadlessKDE(layouts)` starts, in order (1–3 s):
  1. a temp folder with XDG_RUNTIME_DIR (0700), HOME and the XDG folders; `kxkbrc` there
     names the keyboard layouts (`us`, `de`, `us,de` …);
  2. a session bus and an empty stand-in for the system bus;
  3. `kwin_wayland --virtual` (1280×800, no lock screen, no global shortcuts), from a plain
     copy of the binary: the packaged one carries the file capability cap_sys_resource, which
     a container refuses at exec;
  4. xdg-desktop-portal-kde (Qt on that Wayland display), then xdg-desktop-portal with
     XDG_CURRENT_DESKTOP=KDE, until RemoteDesktop answers;
  5. the ground truth: recorder.py, a fullscreen GTK window kwin focuses, writing what it
     receives as JSON lines.

A process without an app_id gets no consent dialog from KDE 5.27 (Start succeeds at once,
with a notification), which is what a server run by a test is unless it runs in an app scope
(`AppScope`: the cgroup Plasma starts a program in, from which xdg-desktop-portal derives the
app id). KDE then asks at every start — if the dialog's QML is there: `HeadlessKDE(dialogs=…)`
gives the portal the modules scripts/setup.sh --test extracts from plasma-workspace's packages
(`DIALOG_CACHE`), and AT-SPI (QT_LINUX_ACCESSIBILITY_ALWAYS_ON) to press its buttons with
(kde_dialog.py). Without them portal-kde answers Start with 1 at once.

`close()` ends every process by PID (its own, then what the session bus activated: the AT-SPI
bus) and removes the folder.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from recorder_events import RECORDER, SYSTEM_PYTHON, HeadlessSession, SessionError, gtk3_missing, wait_until
from testkit import REPO, dbus_config, end_activated, private_session_folders

HERE = Path(__file__).resolve().parent

PROGRAMS = {
    "kwin_wayland": "/usr/bin/kwin_wayland",
    "xdg-desktop-portal-kde": "/usr/lib/x86_64-linux-gnu/libexec/xdg-desktop-portal-kde",
    "xdg-desktop-portal": "/usr/libexec/xdg-desktop-portal",
    "dbus-daemon": "/usr/bin/dbus-daemon",
    "dbus-send": "/usr/bin/dbus-send",
}


# What the consent dialog's QML imports (SystemDialog.qml and Breeze's systemdialog script),
# as qmldir files under Qt's QML folder, by the Debian package that has it.
DIALOG_MODULES = {
    "qml-module-org-kde-kirigami2": "org/kde/kirigami.2",
    "qml-module-qtquick-controls2": "QtQuick/Controls.2",
    "qml-module-qtquick-layouts": "QtQuick/Layouts",
    "qml-module-qtquick-window2": "QtQuick/Window.2",
    "qml-module-qtgraphicaleffects": "QtGraphicalEffects",
    "qml-module-qtquick2": "QtQuick.2",
}
# Where scripts/setup.sh --test extracts plasma-workspace's dialog modules and the Breeze
# look-and-feel package (from their .debs, not installed); "complete" is written last.
DIALOG_CACHE = REPO / ".build" / "kde-dialog"


def missing_programs() -> list[str]:
    """What the session needs and this machine lacks (setup.sh --test installs them)."""
    return [name for name, path in PROGRAMS.items() if not os.access(path, os.X_OK)] + gtk3_missing()


def qt_folder(root: Path, name: str) -> Path | None:
    """`root`/usr/lib/<multiarch>/qt5/`name`, whichever architecture it was made for."""
    return next(iter(sorted(root.glob(f"usr/lib/*/qt5/{name}"))), None)


def dialog_missing() -> list[str]:
    """What KDE's consent dialog needs and this machine lacks: the QML packages, the folders
    extracted from plasma-workspace's .debs (both from setup.sh --test)."""
    qml = qt_folder(Path("/"), "qml")
    missing = [package for package, module in DIALOG_MODULES.items()
               if qml is None or not (qml / module / "qmldir").exists()]
    if not (DIALOG_CACHE / "complete").exists():
        missing.append(f"plasma-workspace's dialog modules in {DIALOG_CACHE}")
    return missing


class KDEError(SessionError):
    pass


class HeadlessKDE(HeadlessSession):
    """One headless Plasma session; `env` is what a client of it needs."""

    def __init__(self, layouts: str = "us", dialogs: Path | None = None, timeout: float = 30.0):
        """`dialogs`: the folder with the consent dialog's QML (`DIALOG_CACHE`), or None for a
        portal that cannot show it."""
        self.root = Path(tempfile.mkdtemp(prefix="gesturepad-kde-"))
        self.dialogs = dialogs
        self.processes: dict[str, subprocess.Popen] = {}
        self.events_path = self.root / "recorder.jsonl"
        self.events_path.touch()
        try:
            self._start(layouts, timeout)
        except BaseException:
            self.close()
            raise

    def _start(self, layouts: str, timeout: float) -> None:
        self.env = private_session_folders(self.root)
        runtime = Path(self.env["XDG_RUNTIME_DIR"])
        (Path(self.env["XDG_CONFIG_HOME"]) / "kxkbrc").write_text(f"[Layout]\nLayoutList={layouts}\nUse=true\n")
        self.socket = "gesturepad-kde"
        self.env.update({"XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": "5"})
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self._bus("session", ["--session"], runtime / "bus")
        system_config = self.root / "system-bus.conf"
        system_config.write_text(dbus_config("system", f"unix:path={runtime / 'system_bus_socket'}"))
        self.env["DBUS_SYSTEM_BUS_ADDRESS"] = self._bus(
            "system", [f"--config-file={system_config}"], runtime / "system_bus_socket")

        kwin = self.root / "kwin_wayland"
        shutil.copyfile(PROGRAMS["kwin_wayland"], kwin)
        kwin.chmod(0o755)
        self._spawn("kwin", [str(kwin), "--virtual", "--no-lockscreen", "--no-global-shortcuts",
                             "--width", "1280", "--height", "800", "--socket", self.socket])
        wait_until(lambda: (runtime / self.socket).exists(), timeout, "kwin_wayland's socket")
        self.env["WAYLAND_DISPLAY"] = self.socket
        self._spawn("xdg-desktop-portal-kde", [PROGRAMS["xdg-desktop-portal-kde"]], self._portal_env())
        wait_until(lambda: self._has_name("org.freedesktop.impl.portal.desktop.kde"), timeout,
                   "xdg-desktop-portal-kde on the session bus")
        self._spawn("xdg-desktop-portal", [PROGRAMS["xdg-desktop-portal"]])
        wait_until(lambda: self._has_name("org.freedesktop.portal.Desktop"), timeout, "xdg-desktop-portal")
        self._spawn("recorder", [SYSTEM_PYTHON, str(RECORDER), str(self.events_path)],
                    {"GDK_BACKEND": "wayland", **({"WAYLAND_DEBUG": "1"} if os.environ.get("KDE_WL_DEBUG") else {})})
        wait_until(lambda: any(e["type"] == "ready" for e in self._all()), timeout, "the recorder window's focus")
        self.events()

    def _portal_env(self) -> dict[str, str]:
        """xdg-desktop-portal-kde's environment: Qt on KWin's display; with `dialogs`, the
        extracted modules beside the system's (QML imports, the look-and-feel package
        structure plugin, the Breeze package under XDG_DATA_DIRS) and Qt's AT-SPI bridge on."""
        env = {"QT_QPA_PLATFORM": "wayland"}
        if self.dialogs is not None:
            env.update({
                "QML2_IMPORT_PATH": str(qt_folder(self.dialogs, "qml")),
                "QT_PLUGIN_PATH": str(qt_folder(self.dialogs, "plugins")),
                "XDG_DATA_DIRS": f"{self.dialogs / 'usr/share'}:/usr/local/share:/usr/share",
                "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
            })
        return env

    def _bus(self, name: str, args: list[str], socket: Path) -> str:
        process = subprocess.Popen(["dbus-daemon", "--nofork", "--print-address=1", *args,
                                    f"--address=unix:path={socket}"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env, text=True)
        self.processes[f"dbus-{name}"] = process
        address = process.stdout.readline().strip()
        if not address:
            raise KDEError(f"the {name} bus did not start")
        return address

    def _has_name(self, name: str) -> bool:
        result = subprocess.run([PROGRAMS["dbus-send"], "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                                 "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", f"string:{name}"],
                                capture_output=True, text=True, env=self.env)
        return "boolean true" in result.stdout

    # -- the desktop --------------------------------------------------------------------------------
    def set_layout(self, index: int) -> None:
        """Makes layout `index` of kxkbrc's list the active one (KWin's org.kde.keyboard)."""
        result = subprocess.run([PROGRAMS["dbus-send"], "--session", "--print-reply", "--dest=org.kde.keyboard",
                                 "/Layouts", "org.kde.KeyboardLayouts.setLayout", f"uint32:{index}"],
                                capture_output=True, text=True, env=self.env)
        if "boolean true" not in result.stdout:
            raise KDEError(f"setLayout({index}) failed: {result.stdout} {result.stderr}")

    def restart_portal(self) -> None:
        """Ends xdg-desktop-portal-kde and starts it again (its keymap learnt anew)."""
        old = self.processes["xdg-desktop-portal-kde"]
        old.send_signal(signal.SIGTERM)
        old.wait(timeout=10)
        wait_until(lambda: not self._has_name("org.freedesktop.impl.portal.desktop.kde"), 10, "the portal to go")
        self._spawn("xdg-desktop-portal-kde", [PROGRAMS["xdg-desktop-portal-kde"]], self._portal_env())
        wait_until(lambda: self._has_name("org.freedesktop.impl.portal.desktop.kde"), 20, "the portal to return")

    def frontend_pid(self) -> int | None:
        """The pid of xdg-desktop-portal (the frontend every client talks to), while it runs."""
        process = self.processes.get("xdg-desktop-portal")
        return process.pid if process and process.poll() is None else None

    def stop_frontend(self) -> None:
        """Ends xdg-desktop-portal (what a crash or an update does): its sessions end with it."""
        old = self.processes["xdg-desktop-portal"]
        old.send_signal(signal.SIGTERM)
        old.wait(timeout=10)
        wait_until(lambda: not self._has_name("org.freedesktop.portal.Desktop"), 10, "xdg-desktop-portal to go")

    def start_frontend(self) -> None:
        """Starts xdg-desktop-portal again (a desktop does it by D-Bus activation)."""
        self._spawn("xdg-desktop-portal", [PROGRAMS["xdg-desktop-portal"]])
        wait_until(lambda: self._has_name("org.freedesktop.portal.Desktop"), 20, "xdg-desktop-portal to return")

    # -- the consent dialog -------------------------------------------------------------------------
    def answer_dialog(self, answer: str, timeout: float = 15.0) -> dict:
        """Presses `answer` ("Share" or "Cancel") in portal-kde's dialog through AT-SPI once it
        shows (kde_dialog.py under Debian's Python); returns what it saw: {"found", "texts"}."""
        result = subprocess.run([SYSTEM_PYTHON, str(HERE / "kde_dialog.py"), answer, str(timeout)],
                                capture_output=True, text=True, env=self.env, timeout=timeout + 15)
        if result.returncode != 0:
            raise KDEError(f"kde_dialog.py failed ({result.returncode}): {result.stderr[-2000:]}")
        return json.loads(result.stdout)

    def close(self) -> None:
        """Ends every process (SIGTERM, then SIGKILL after 5 s), then what the session bus
        activated (the AT-SPI bus), and removes the folder."""
        own = {process.pid for process in self.processes.values()}
        runtime = Path(self.env["XDG_RUNTIME_DIR"]) if hasattr(self, "env") else None
        super().close()
        if runtime is not None:
            end_activated(runtime, own)
