"""CONTROL.md "Page → server: keyboard and buttons": `text`, `key`, `button` over a real
WebSocket → the key and button events at the X window; refused input types nothing."""
import pytest
from Xlib import X

from x11_harness import BUTTON1_MASK, ANY_BUTTON_MASK, buttons, describe, keys, typed

HOME = (500, 500)


def assert_all_released(x, events):
    held = x.held_keycodes()
    assert held == [], f"keys still held: {[x.keycode_name(k) for k in held]}; the window got: {describe(events)}"
    downs = [e.detail for e in events if e.kind == "keydown"]
    ups = [e.detail for e in events if e.kind == "keyup"]
    assert sorted(downs) == sorted(ups), f"key presses and releases do not pair up: {describe(events)}"


def test_text_types_exactly_its_characters(x, start_server, pads):
    """`text` "Hello é中" types exactly those characters, the non-ASCII ones too (keysyms read after each MappingNotify)."""
    pad = pads(start_server())
    text = "Hello é中"
    error = pad.request({"type": "text", "text": text})
    assert error is None, f"`text` refused: {error}"
    x.wait_for(lambda ev: len(typed(ev)) >= len(text), x.start, timeout=3)
    events = x.wait_quiet(x.start, quiet=0.2)
    assert typed(events) == text, f"typed {typed(events)!r}, expected {text!r}; the window got: {describe(events)}"
    assert_all_released(x, events)
    assert buttons(events) == [], describe(events)


def test_key_enter_and_control_c(x, start_server, pads):
    """`key` Enter presses and releases Return; `key` "c" with ["Control"] gives Control down, c down, c up, Control up."""
    pad = pads(start_server())
    assert pad.request({"type": "key", "key": "Enter"}) is None
    x.wait_for(lambda ev: ("up", "Enter") in keys(ev), x.start, timeout=3)
    events = x.wait_quiet(x.start)
    assert keys(events) == [("down", "Enter"), ("up", "Enter")], f"`key` Enter; the window got: {describe(events)}"

    mark = x.mark()
    assert pad.request({"type": "key", "key": "c", "modifiers": ["Control"]}) is None
    x.wait_for(lambda ev: ("up", "Control") in keys(ev), mark, timeout=3)
    events = x.wait_quiet(mark)
    assert keys(events) == [("down", "Control"), ("down", "c"), ("up", "c"), ("up", "Control")], (
        f"`key` c + Control; the window got: {describe(events)}")
    c_down = [e for e in events if e.kind == "keydown" and e.name == "c"][0]
    assert c_down.state & X.ControlMask, f"c went down without Control in its state ({c_down.state:#x})"
    assert_all_released(x, events)


def test_button_messages_click_and_hold(x, start_server, pads):
    """`button` right click gives button 3 press/release where the pointer is; left down holds button 1 (mask 0x100) until left up."""
    pad = pads(start_server())
    assert pad.request({"type": "button", "button": "right", "action": "click"}) is None
    x.wait_for(lambda ev: ("release", 3) in buttons(ev), x.start, timeout=3)
    events = x.wait_quiet(x.start)
    assert buttons(events) == [("press", 3), ("release", 3)], f"right click; the window got: {describe(events)}"
    assert all((e.x, e.y) == HOME for e in events if e.kind in ("press", "release")), describe(events)

    mark = x.mark()
    assert pad.request({"type": "button", "button": "left", "action": "down"}) is None
    state = x.wait_pointer(lambda s: s[2] & BUTTON1_MASK, timeout=3)
    assert state[2] & BUTTON1_MASK, f"left down: mask {state[2]:#x}; the window got: {describe(x.events(mark))}"
    assert pad.request({"type": "button", "button": "left", "action": "up"}) is None
    state = x.wait_pointer(lambda s: not s[2] & ANY_BUTTON_MASK, timeout=3)
    events = x.wait_quiet(mark)
    assert not state[2] & ANY_BUTTON_MASK and buttons(events) == [("press", 1), ("release", 1)], (
        f"left down / up: mask {state[2]:#x}; the window got: {describe(events)}")


BAD = [
    ({"type": "text", "text": "a" * 1001}, "text of 1,001 characters"),
    ({"type": "text", "text": ""}, "empty text"),
    ({"type": "text", "text": "ab\u0007c"}, "text with a control character (BEL)"),
    ({"type": "key", "key": "NoSuchKey"}, "unknown key name"),
    ({"type": "key", "key": "c", "modifiers": ["Hyper"]}, "unknown modifier"),
    ({"type": "button", "button": "side", "action": "click"}, "unknown button"),
    ({"type": "button", "button": "left", "action": "hold"}, "unknown button action"),
]


def test_bad_keyboard_and_button_input_is_bad_field_and_types_nothing(x, start_server, pads):
    """Too long / empty text, a control character, an unknown key, modifier, button or action → error bad_field, and nothing reaches the window."""
    pad = pads(start_server())
    wrong = []
    for message, what in BAD:
        error = pad.request(message)
        if error is None or error.get("code") != "bad_field":
            wrong.append(f"{what}: answered {error}")
    pad.sync()
    events = x.wait_quiet(x.start, quiet=0.2)
    assert not wrong, "; ".join(wrong) + f"; the window got: {describe(events)}"
    assert events == [], f"refused input, yet the window got: {describe(events)}"


@pytest.mark.parametrize("message", [
    {"type": "text", "text": "hi"},
    {"type": "key", "key": "Enter"},
    {"type": "button", "button": "left", "action": "click"},
], ids=["text", "key", "button"])
def test_observer_cannot_type_or_click(x, start_server, pads, message):
    """An observer's `text` / `key` / `button` is answered with observer_read_only and nothing reaches the window."""
    server = start_server()
    observer = pads(server, role="observer")
    error = observer.request(message)
    assert error is not None and error.get("code") == "observer_read_only", f"observer's {message} answered {error}"
    events = x.wait_quiet(x.start, quiet=0.2)
    assert events == [], f"an observer's {message['type']} reached the window: {describe(events)}"
