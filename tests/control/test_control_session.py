"""CONTROL.md "Starting" and "welcome": which connections control the computer, and `--control off`."""
import pytest

from touch_input import even_steps
from x11_harness import describe

FLAT = ["--acceleration", "flat", "--speed", "1"]
HOME = (500, 500)


def test_welcome_says_x11_drives_a_touchpad_and_no_observer(start_server, pads):
    """welcome.control is {"active": true, "backend": "x11"} for a touchpad; an observer's is active false with a reason; start-up names x11."""
    server = start_server()
    pad = pads(server)
    assert pad.welcome.get("control") == {"active": True, "backend": "x11"}, f"touchpad welcome: {pad.welcome}"
    observer = pads(server, role="observer")
    control = observer.welcome.get("control")
    assert isinstance(control, dict) and control.get("active") is False, f"observer welcome: {observer.welcome}"
    assert isinstance(control.get("reason"), str) and control["reason"], f"observer welcome without a reason: {control}"
    pad.close()
    observer.close()
    assert server.stop() == 0
    output = server.stdout() + server.stderr()
    assert "x11" in output.lower(), f"start-up does not say which backend drives the computer: {output[-1500:]!r}"


@pytest.mark.parametrize("message", [
    {"type": "text", "text": "hi"},
    {"type": "key", "key": "Enter"},
    {"type": "key", "key": "c", "modifiers": ["Control"]},
    {"type": "button", "button": "left", "action": "click"},
    {"type": "button", "button": "right", "action": "down"},
], ids=["text", "key", "key-modifiers", "button-click", "button-down"])
def test_control_off_answers_control_off(x, start_server, pads, message):
    """With --control off, `text` / `key` / `button` are answered with error control_off, the connection stays and nothing reaches the X window."""
    pad = pads(start_server(control="off"))
    assert pad.welcome.get("control", {}).get("active") is False, pad.welcome
    error = pad.request(message)
    assert error is not None and error.get("code") == "control_off", f"{message} answered {error}"
    pad.sync()  # still open and answering
    events = x.wait_quiet(x.start)
    assert events == [] and x.pointer() == (*HOME, 0), f"control off, yet the window got: {describe(events)}"


def test_control_off_never_moves_or_clicks(x, start_server, pads):
    """With --control off (DISPLAY still set), strokes, taps and two-finger scrolls move and click nothing."""
    pad = pads(start_server(FLAT, control="off"))
    pad.down({1: (200, 200)})
    pad.up(pad.glide({1: (200, 200)}, even_steps(300, 150, 60)))
    pad.tap({1: (400, 400)})
    start = {1: (300, 700), 2: (360, 700)}
    pad.down(start)
    pad.up(pad.glide(start, even_steps(0, -100, 25, fingers=(1, 2))))
    pad.sync()
    events = x.wait_quiet(x.start, quiet=0.4)  # longer than a tap's 300 ms button hold
    assert x.pointer() == (*HOME, 0), f"control off moved the pointer to {x.pointer()}; the window got: {describe(events)}"
    assert events == [], f"control off, yet the window got: {describe(events)}"


def test_server_stop_releases_what_a_connection_holds(x, start_server, pads):
    """SIGTERM while a touchpad holds a button and a key: both are released before the server exits."""
    server = start_server()
    pad = pads(server)
    pad.send({"type": "button", "button": "left", "action": "down"})
    pad.send({"type": "key", "key": "Shift"})  # a key press and release: nothing stays
    pad.sync()
    assert x.wait_pointer(lambda p: p[2] & 0x100)[2] & 0x100, "button 1 never went down"
    assert server.stop() == 0
    state = x.wait_pointer(lambda p: not p[2] & 0x100, timeout=2.0)
    assert not state[2] & 0x100, f"button 1 still held after the server stopped: mask {state[2]:#x}"
    assert x.held_keycodes() == [], f"keys still held after the server stopped: {x.held_keycodes()}"
