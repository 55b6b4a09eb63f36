"""CONTROL.md "Nothing stays pressed", when the server dies: SIGKILL mid-drag and mid-pinch on a
private Xvfb. The X server keeps an XTest client's presses after the client is gone, so the
x11 backend starts a release guard (`gesturepad x11-release-guard`) that lets go of what the
server held the moment the server's pipe to it ends; and a server that starts releases what a
predecessor killed together with its guard left down."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from testkit import Server
from touch_input import Pad, even_steps, spread_steps
from x11_harness import ANY_BUTTON_MASK, BUTTON1_MASK, buttons, describe, keys

FLAT = ["--acceleration", "flat", "--speed", "1"]
# The guard reacts within milliseconds of the server's death (measured here: under 10 ms); the
# issue's bound is half a second, far above that, so a loaded machine does not make this flaky.
RELEASE_BOUND = 0.5


def guard_of(server: Server, timeout: float = 5.0) -> int:
    """The pid of the server's release guard (its child running `x11-release-guard`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == server.process.pid and b"x11-release-guard" in argv:
                return int(entry.name)
        time.sleep(0.01)
    raise AssertionError(f"the server (pid {server.process.pid}) started no x11-release-guard")


def gone(pid: int, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.01)
    return False


def drag_with_button_1_down(pad: Pad, x) -> None:
    """Tap, touch again and move: button 1 held (the drag goes on: the finger stays down)."""
    pad.tap({1: (400, 400)})
    x.wait_for(lambda ev: ("press", 1) in buttons(ev), x.start, timeout=2)
    time.sleep(0.08)  # past multiTapMinInterval (40 ms), inside multiTapInterval (300 ms)
    pad.down({1: (400, 400)})
    pad.glide({1: (400, 400)}, even_steps(80, 0, 50))  # 0.4 s: past the tap's own 300 ms
    pad.sync()
    state = x.pointer()
    assert state[2] & BUTTON1_MASK, f"no drag: mask {state[2]:#x}; the window got: {describe(x.events(x.start))}"


def test_sigkill_mid_drag_releases_button_1_at_once_and_after_a_restart(x, start_server):
    """SIGKILL while a tap-and-drag holds button 1: released within 0.5 s with no restart, the guard exits; a new server finds nothing held and clicks."""
    server = start_server(FLAT)
    pad = Pad(server)
    guard = guard_of(server)
    drag_with_button_1_down(pad, x)
    killed = server.kill()
    state = x.wait_pointer(lambda s: not s[2] & ANY_BUTTON_MASK, timeout=3)
    took = time.monotonic() - killed
    events = x.wait_quiet(x.start)
    assert not state[2] & ANY_BUTTON_MASK, f"button mask {state[2]:#x} after SIGKILL; the window got: {describe(events)}"
    assert took <= RELEASE_BOUND, f"button 1 released {took:.3f} s after SIGKILL"
    assert buttons(events)[-1] == ("release", 1), describe(events)
    assert gone(guard), "the release guard outlived the server"
    pad.close()

    again = start_server(FLAT)
    fresh = Pad(again)
    assert x.pointer()[2] & ANY_BUTTON_MASK == 0
    mark = x.mark()
    fresh.tap({1: (300, 300)})
    x.wait_for(lambda ev: ("release", 1) in buttons(ev), mark, timeout=3)
    assert buttons(x.wait_quiet(mark)) == [("press", 1), ("release", 1)], describe(x.events(mark))
    fresh.close()


def test_sigkill_mid_pinch_releases_control(x, start_server):
    """SIGKILL while two fingers pinch (Control held around the wheel clicks): Control is up within 0.5 s."""
    server = start_server(FLAT)
    pad = Pad(server)
    guard_of(server)
    start, steps = spread_steps((600, 600), 40, 84, 22)
    pad.down(start)
    pad.glide(start, steps)  # the fingers stay down: the pinch goes on, Control stays held
    pad.sync()
    x.wait_for(lambda ev: ("down", "Control") in keys(ev), x.start, timeout=3)
    assert x.held_keycodes(), f"no key held mid-pinch; the window got: {describe(x.events(x.start))}"
    killed = server.kill()
    deadline = killed + 3
    while x.held_keycodes() and time.monotonic() < deadline:
        time.sleep(0.005)
    took = time.monotonic() - killed
    held = [x.keycode_name(k) for k in x.held_keycodes()]
    assert held == [], f"keys still held after SIGKILL: {held}; the window got: {describe(x.wait_quiet(x.start))}"
    assert took <= RELEASE_BOUND, f"Control released {took:.3f} s after SIGKILL"
    assert keys(x.wait_quiet(x.start))[-1] == ("up", "Control")
    pad.close()


def test_a_new_server_releases_what_a_killed_server_and_guard_left(x, start_server):
    """Server and guard both SIGKILLed mid-drag: button 1 stays down (the X server keeps it); the next server releases it at start, before any phone connects, and says so."""
    server = start_server(FLAT)
    pad = Pad(server)
    guard = guard_of(server)
    drag_with_button_1_down(pad, x)
    os.kill(guard, signal.SIGKILL)
    assert gone(guard), "the guard did not die"
    server.kill()
    pad.close()
    state = x.wait_pointer(lambda s: not s[2] & ANY_BUTTON_MASK, timeout=0.3)
    assert state[2] & BUTTON1_MASK, "button 1 was released with no guard: this test would prove nothing"

    again = start_server(FLAT)
    state = x.wait_pointer(lambda s: not s[2] & ANY_BUTTON_MASK, timeout=3)
    assert not state[2] & ANY_BUTTON_MASK, f"the new server left button 1 down: mask {state[2]:#x}"
    assert again.process.poll() is None
    deadline = time.monotonic() + 3
    while "left down" not in again.stderr() + again.stdout() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "left down" in again.stderr() + again.stdout(), f"no notice of what was released: {again.stderr()[-800:]}"


def test_the_guard_holds_no_socket_of_the_server(x, start_server):
    """The guard inherits only its pipe: no listening socket or connection of the server (a
    guard that outlived a killed server must not keep its port)."""
    server = start_server(FLAT)
    pad = Pad(server)
    guard = guard_of(server)

    def links() -> list[str]:
        return [os.readlink(f"/proc/{guard}/fd/{fd}") for fd in os.listdir(f"/proc/{guard}/fd")]

    deadline = time.monotonic() + 5  # the guard opens its X connection once started
    while not any(link.startswith("socket:") for link in links()) and time.monotonic() < deadline:
        time.sleep(0.01)
    sockets = [link for link in links() if link.startswith("socket:")]
    assert len(sockets) == 1, f"the guard has {len(sockets)} sockets (only its X connection expected): {links()}"
    assert os.readlink(f"/proc/{guard}/fd/0").startswith("pipe:"), links()
    pad.close()
