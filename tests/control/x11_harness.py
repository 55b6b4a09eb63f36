"""A private X server (Xvfb) and an X client that records what reaches its window.

`Xvfb` runs on a free display number in its own process group; nothing here ever uses the
shell's own DISPLAY. `XWatcher` maps an override-redirect window over the whole screen, gives
it the keyboard focus and records, in a background thread and in arrival order, the button,
key and motion events XTest delivers to it. Key events are translated to keysyms and
characters as they arrive, with the keyboard map refreshed on every MappingNotify (a server
that types non-ASCII text binds a spare keycode for a moment).
"""
from __future__ import annotations

import os
import random
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from Xlib import X, XK, display, error as xerror
from Xlib.ext import xtest

X11_UNIX = Path("/tmp/.X11-unix")
WIDTH, HEIGHT = 1920, 1080

# query_pointer().mask bits
BUTTON1_MASK, BUTTON2_MASK, BUTTON3_MASK = 0x100, 0x200, 0x400
ANY_BUTTON_MASK = 0x1F00

# Keysyms by the W3C name the tests speak of (either side of a modifier counts).
KEY_NAMES = {
    "Control_L": "Control", "Control_R": "Control",
    "Alt_L": "Alt", "Alt_R": "Alt",
    "Meta_L": "Meta", "Meta_R": "Meta", "Super_L": "Meta", "Super_R": "Meta",
    "Shift_L": "Shift", "Shift_R": "Shift",
    "Return": "Enter", "KP_Enter": "Enter",
    "Left": "ArrowLeft", "Right": "ArrowRight", "Up": "ArrowUp", "Down": "ArrowDown",
}
MODIFIER_NAMES = {"Control", "Alt", "Meta", "Shift"}


def xvfb_path() -> str | None:
    return shutil.which("Xvfb")


class Xvfb:
    """`Xvfb :N -screen 0 1920x1080x24 -nolisten tcp -noreset` on a free :N, in its own process group."""

    def __init__(self, timeout: float = 10.0):
        self.process: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="gesturepad-xvfb-", delete=False)
        failures = []
        deadline = time.monotonic() + timeout
        start = random.randrange(100, 900)  # spread concurrent runs over the numbers
        for number in self._candidates(start):
            if time.monotonic() > deadline:
                break
            if self._start(number, deadline):
                self.number = number
                self.name = f":{number}"
                return
            failures.append(f":{number}: {self.log_text()[-300:]}")
        self.stop()
        raise RuntimeError("Xvfb did not start: " + " | ".join(failures[-3:]))

    @staticmethod
    def _candidates(start: int):
        tried = 0
        for number in list(range(start, 1000)) + list(range(100, start)):
            if (X11_UNIX / f"X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
                continue
            yield number
            tried += 1
            if tried >= 5:
                return

    def _start(self, number: int, deadline: float) -> bool:
        self.log.seek(0)
        self.log.truncate()
        self.process = subprocess.Popen(
            # -noreset: no server reset when the last client goes (the start-up probe below)
            ["Xvfb", f":{number}", "-screen", "0", f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp", "-noreset"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, start_new_session=True)
        socket_path = X11_UNIX / f"X{number}"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:  # the number was taken after all, or a real failure
                self.process = None
                return False
            if socket_path.exists():
                try:
                    display.Display(f":{number}").close()
                    return True
                except (xerror.DisplayError, OSError):
                    pass
            time.sleep(0.02)
        self.stop()
        return False

    def log_text(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            except ProcessLookupError:
                pass

    def close(self) -> None:
        self.stop()
        self.log.close()
        os.unlink(self.log.name)


# -- events ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class XEvent:
    kind: str            # "press" / "release" (buttons), "keydown" / "keyup", "motion", "mapping"
    detail: int = 0      # button number or keycode
    keysym: int = 0
    name: str = ""       # keysym name (W3C name for the keys of KEY_NAMES), "NoSymbol" when unmapped
    char: str | None = None
    state: int = 0       # modifier and button mask at the event
    x: int = 0
    y: int = 0
    time: int = 0        # X server time, ms
    received: float = 0.0  # time.monotonic() when read

    def __str__(self) -> str:
        if self.kind in ("press", "release"):
            return f"{self.kind} {self.detail}@({self.x},{self.y})"
        if self.kind in ("keydown", "keyup"):
            shown = repr(self.char) if self.char is not None and self.name not in KEY_NAMES.values() else self.name
            return f"{self.kind} {shown}[kc {self.detail}]"
        if self.kind == "motion":
            return f"motion({self.x},{self.y})"
        return self.kind


def keysym_char(keysym: int) -> str | None:
    """The character a keysym types (Latin-1 and Unicode keysyms, Return, Tab), else None."""
    if 0x20 <= keysym <= 0x7E or 0xA0 <= keysym <= 0xFF:
        return chr(keysym)
    if 0x01000100 <= keysym <= 0x0110FFFF:
        return chr(keysym - 0x01000000)
    return {0xFF0D: "\n", 0xFF09: "\t"}.get(keysym)


_KEYSYM_NAMES: dict[int, str] = {}


def keysym_name(keysym: int) -> str:
    """The keysym's X name (W3C name for the keys of KEY_NAMES), "U+XXXX" for a Unicode keysym."""
    if keysym == 0:
        return "NoSymbol"
    if not _KEYSYM_NAMES:
        for attribute in dir(XK):  # XK_Return = 0xff0d … (latin1 and miscellany are loaded)
            if attribute.startswith("XK_"):
                _KEYSYM_NAMES.setdefault(getattr(XK, attribute), attribute[3:])
    name = _KEYSYM_NAMES.get(keysym)
    if name is None:
        char = keysym_char(keysym)
        name = f"U+{ord(char):04X}" if char else f"0x{keysym:x}"
    return KEY_NAMES.get(name, name)


def describe(events: list[XEvent], motion: bool = False) -> str:
    """A compact account of what arrived, for failure messages (motion summarised)."""
    parts, moves = [], 0
    for event in events:
        if event.kind == "motion" and not motion:
            moves += 1
            continue
        parts.append(str(event))
    text = ", ".join(parts) if parts else "no button or key events"
    if moves:
        last = next(e for e in reversed(events) if e.kind == "motion")
        text += f" (+{moves} motion events, the last at ({last.x},{last.y}))"
    return text


class XWatcher:
    """The window that sees what XTest delivers. Two connections: one read by the recording
    thread, one for the test's own requests (query_pointer, warp, focus, clean-up)."""

    EVENT_MASK = (X.ButtonPressMask | X.ButtonReleaseMask | X.KeyPressMask | X.KeyReleaseMask
                  | X.PointerMotionMask)

    def __init__(self, display_name: str):
        self.display_name = display_name
        self._events: list[XEvent] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._error: BaseException | None = None

        self._ev = display.Display(display_name)
        screen = self._ev.screen()
        self.window = screen.root.create_window(
            0, 0, screen.width_in_pixels, screen.height_in_pixels, 0, screen.root_depth,
            X.InputOutput, X.CopyFromParent, background_pixel=screen.black_pixel,
            override_redirect=True, event_mask=self.EVENT_MASK)
        self.window.map()
        self._ev.sync()

        self._q = display.Display(display_name)
        self.root = self._q.screen().root
        self._qwindow = self._q.create_resource_object("window", self.window.id)
        self.focus()

        self._thread = threading.Thread(target=self._run, name="x-watcher", daemon=True)
        self._thread.start()

    # -- recording thread ------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                while self._ev.pending_events():
                    self._record(self._ev.next_event())
                select.select([self._ev], [], [], 0.05)
        except BaseException as error:  # noqa: BLE001 — reported by the next check
            self._error = error

    def _keysym(self, keycode: int, state: int) -> int:
        lookup = self._ev.keycode_to_keysym
        if state & X.ShiftMask:
            keysym = lookup(keycode, 1)
            if keysym:
                return keysym
            keysym = lookup(keycode, 0)
            char = keysym_char(keysym)
            if char and char.upper() != char and len(char.upper()) == 1:
                upper = ord(char.upper())
                return upper if upper <= 0xFF else 0x01000000 + upper
            return keysym
        return lookup(keycode, 0)

    def _record(self, event) -> None:
        now = time.monotonic()
        if event.type == X.MappingNotify:
            self._ev.refresh_keyboard_mapping(event)
            record = XEvent("mapping", received=now)
        elif event.type in (X.ButtonPress, X.ButtonRelease):
            record = XEvent("press" if event.type == X.ButtonPress else "release", event.detail,
                            state=event.state, x=event.root_x, y=event.root_y, time=event.time,
                            received=now)
        elif event.type in (X.KeyPress, X.KeyRelease):
            keysym = self._keysym(event.detail, event.state)
            record = XEvent("keydown" if event.type == X.KeyPress else "keyup", event.detail, keysym,
                            keysym_name(keysym), keysym_char(keysym), event.state, event.root_x,
                            event.root_y, event.time, now)
        elif event.type == X.MotionNotify:
            record = XEvent("motion", state=event.state, x=event.root_x, y=event.root_y,
                            time=event.time, received=now)
        else:
            return
        with self._lock:
            self._events.append(record)

    # -- reading ------------------------------------------------------------------------------
    def check(self) -> None:
        if self._error is not None:
            raise RuntimeError(f"the X event thread failed: {self._error!r}")

    def mark(self) -> int:
        with self._lock:
            return len(self._events)

    def events(self, since: int = 0, kinds: tuple[str, ...] | None = None) -> list[XEvent]:
        self.check()
        with self._lock:
            events = self._events[since:]
        return [e for e in events if kinds is None or e.kind in kinds]

    def wait_for(self, predicate, since: int = 0, timeout: float = 3.0) -> list[XEvent]:
        """Polls until predicate(events since `since`) holds or the deadline passes; returns the
        events either way (the caller asserts and prints them)."""
        deadline = time.monotonic() + timeout
        while True:
            events = self.events(since)
            if predicate(events) or time.monotonic() > deadline:
                return events
            time.sleep(0.01)

    def wait_quiet(self, since: int = 0, quiet: float = 0.15, timeout: float = 3.0) -> list[XEvent]:
        """Waits (X round trip first) until no new event has come for `quiet` seconds."""
        self._q.sync()
        deadline = time.monotonic() + timeout
        count, changed = len(self.events(since)), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.02)
            now_count = len(self.events(since))
            if now_count != count:
                count, changed = now_count, time.monotonic()
            elif time.monotonic() - changed >= quiet:
                break
        return self.events(since)

    # -- the test's own requests -----------------------------------------------------------------
    def pointer(self) -> tuple[int, int, int]:
        """(x, y, button mask) of the pointer now."""
        reply = self.root.query_pointer()
        return reply.root_x, reply.root_y, reply.mask

    def wait_pointer(self, predicate, timeout: float = 3.0) -> tuple[int, int, int]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.pointer()
            if predicate(state) or time.monotonic() > deadline:
                return state
            time.sleep(0.005)

    def held_keycodes(self) -> list[int]:
        keymap = self._q.query_keymap()
        return [byte_index * 8 + bit for byte_index, byte in enumerate(keymap) for bit in range(8)
                if byte & (1 << bit)]

    def keycode_name(self, keycode: int) -> str:
        return keysym_name(self._q.keycode_to_keysym(keycode, 0))

    def focus(self) -> None:
        self._qwindow.raise_window()
        self._qwindow.set_input_focus(X.RevertToParent, X.CurrentTime)
        self._q.sync()

    def warp(self, x: int, y: int) -> None:
        self.root.warp_pointer(x, y)
        self._q.sync()
        state = self.wait_pointer(lambda s: s[:2] == (x, y), timeout=2)
        assert state[:2] == (x, y), f"warp_pointer({x}, {y}) left the pointer at {state[:2]}"

    def reset(self, x: int = 500, y: int = 500) -> int:
        """Start of a test: nothing held (a failed test may have left something down), the
        window focused, the pointer at (x, y). Returns the mark of the test's first event."""
        self.check()
        _, _, mask = self.pointer()
        for button in range(1, 6):
            if mask & (0x80 << button):
                xtest.fake_input(self._q, X.ButtonRelease, button)
        for keycode in self.held_keycodes():
            xtest.fake_input(self._q, X.KeyRelease, keycode)
        self._q.sync()
        self.focus()
        self.warp(x, y)
        self.wait_quiet(self.mark(), quiet=0.05, timeout=1)
        return self.mark()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for connection in (self._q, self._ev):
            try:
                connection.close()
            except Exception:  # noqa: BLE001 — the X server may be gone already
                pass


# -- reading recorded events -----------------------------------------------------------------

def buttons(events: list[XEvent], include_wheel: bool = True) -> list[tuple[str, int]]:
    """("press"|"release", button) in order."""
    return [(e.kind, e.detail) for e in events if e.kind in ("press", "release")
            and (include_wheel or e.detail < 4 or e.detail > 7)]


def keys(events: list[XEvent]) -> list[tuple[str, str]]:
    """("down"|"up", keysym name) in order."""
    return [("down" if e.kind == "keydown" else "up", e.name) for e in events if e.kind in ("keydown", "keyup")]


def typed(events: list[XEvent]) -> str:
    """The text the key presses type (modifier and other non-character keys skipped)."""
    return "".join(e.char for e in events if e.kind == "keydown" and e.char is not None)
