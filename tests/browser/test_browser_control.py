"""The touchpad's controls for the computer, in real headless Chromium (phone emulation, touch).

What each control sends is read from the WebSocket frames the tab really sent (CDP
`Network.webSocketFrameSent`); the server runs with `--control x11` on a private Xvfb, so the
controls are shown and the server answers `settings`. The end-to-end test at the bottom checks
what reaches an X window."""

from __future__ import annotations

import json
import time

from browser_harness import (
    Player, check_wire, forget_prefs, key_event, no_console_errors, open_ctl_pad, tap_and_drag, tap_element, wait_wire,
    wire_messages,
)

HIDDEN = "(function(e){return !e.getClientRects().length;})(document.querySelector(%r))"


def shown(page, selector: str) -> bool:
    return not page.eval(HIDDEN % selector)


def typed(page) -> list[dict]:
    return [m for m in wire_messages(page) if m["type"] in ("text", "key", "button")]


def open_keyboard(page) -> None:
    tap_element(page, "#keyboard")
    page.wait_for("window.gesturepad.keyboard && window.gesturepad.keyboard.open && document.activeElement.id === 'kbd-input'")


# ---- shown or hidden ------------------------------------------------------------------------

def test_controls_hidden_when_control_off(pad):
    """With --control off the welcome says so, and the page is the plain gesture view: no
    toolbar but the Media button (docs/page.md "Media"), no key row, button bar or settings,
    nothing of them sent, the surface untouched."""
    # The page asked to hear the media players (they need no control) and the server answered.
    pad.wait_for("window.gesturepad.received.some(function (m) { return m.type === 'media'; })")
    st = pad.state()
    assert st["control"]["active"] is False and st["control"]["reason"]
    for sel in ("#keyboard", "#presenter-open", "#dock", "#keys", "#mousebar", "#sheet", "#kbd-input"):
        assert not shown(pad, sel), f"{sel} is shown with control off"
    assert pad.eval("Array.from(document.querySelectorAll('#tools button')).filter(function(b){return b.getClientRects().length;})"
                    ".map(function(b){return b.id;})") == ["media-open"]
    assert pad.eval("document.body.classList.contains('control')") is False
    # The canvas is what a finger meets everywhere but the header and the Media button.
    for x, y in ((20, 830), (300, 830), (370, 600), (195, 420)):
        assert pad.eval(f"document.elementFromPoint({x},{y}).id") == "surface", (x, y)
    assert not [m for m in st["sent"] if m["type"] in ("settings", "text", "key", "button")]
    assert pad.eval("document.getElementById('hint').textContent").startswith("Touch anywhere")
    no_console_errors(pad)


def test_controls_shown_with_control_and_settings_sent_after_welcome(ctl_pad):
    """With control active: a toolbar whose Keyboard button has that accessible name; the
    panels closed (the surface is free); `settings` sent right after the welcome and answered."""
    st = ctl_pad.state()
    assert st["control"] == {"active": True, "backend": "x11"}
    assert shown(ctl_pad, "#tools") and shown(ctl_pad, "#keyboard")
    assert not shown(ctl_pad, "#keys") and not shown(ctl_pad, "#mousebar") and not shown(ctl_pad, "#sheet")
    root = ctl_pad.call("DOM.getDocument")["root"]["nodeId"]
    for name in ("Keyboard", "Mouse buttons", "Settings", "Presenter"):
        nodes = ctl_pad.call("Accessibility.queryAXTree", {"nodeId": root, "accessibleName": name, "role": "button"})["nodes"]
        assert len(nodes) == 1, f"no single button named {name!r}"
    for x, y in ((20, 830), (195, 420), (20, 120)):
        assert ctl_pad.eval(f"document.elementFromPoint({x},{y}).id") == "surface", (x, y)
    # The first batch after hello asks for the values in force; the answer is shown.
    sent = wire_messages(ctl_pad, ("settings",))
    assert sent[0] == {"type": "settings"}
    # frames_sent[0] is the proof (auth), [1] the hello.
    first_batch = json.loads(ctl_pad.wire_sent()[2])
    assert {"type": "settings"} in first_batch
    assert st["settings"]["speed"] == 1 and st["settings"]["acceleration"] == "adaptive"
    check_wire(ctl_pad, ctl_pad.state())
    no_console_errors(ctl_pad)


# ---- keyboard ------------------------------------------------------------------------------------

def test_typing_and_ime_send_exactly_the_committed_text(ctl_pad):
    """Text typed into the soft keyboard goes out as `text`; an IME composition (pinyin,
    then kana) goes out once, as the composed text, at compositionend — never the romaji."""
    open_keyboard(ctl_pad)
    assert shown(ctl_pad, "#keys")
    ctl_pad.call("Input.insertText", {"text": "Hello "})
    for step in ("n", "ni", "nih", "niha", "nihao", "你好"):
        ctl_pad.call("Input.imeSetComposition", {"text": step, "selectionStart": len(step), "selectionEnd": len(step)})
    time.sleep(0.1)
    assert typed(ctl_pad) == [{"type": "text", "text": "Hello "}], "nothing goes out while composing"
    ctl_pad.call("Input.insertText", {"text": "你好"})  # commits the composition
    for step in ("k", "か", "かn", "かん", "かんじ", "漢字"):
        ctl_pad.call("Input.imeSetComposition", {"text": step, "selectionStart": len(step), "selectionEnd": len(step)})
    ctl_pad.call("Input.insertText", {"text": "漢字"})
    ctl_pad.call("Input.insertText", {"text": "!"})
    wait_wire(ctl_pad, 5)  # the settings probe and four texts
    assert typed(ctl_pad) == [{"type": "text", "text": t} for t in ("Hello ", "你好", "漢字", "!")]
    assert ctl_pad.eval("document.getElementById('kbd-input').value") == "", "the field is emptied after each text"
    no_console_errors(ctl_pad)


def test_enter_backspace_and_sticky_ctrl(ctl_pad):
    """Enter and Backspace go out as `key`; a sticky Ctrl applies to the next character only
    (`key` c with Control), a double-tapped Ctrl stays on until tapped again; special keys,
    Shift + arrow and the volume key of the key row; a sticky Alt takes a composing character."""
    open_keyboard(ctl_pad)
    key_event(ctl_pad, "Enter", "Enter", 13)
    key_event(ctl_pad, "Backspace", "Backspace", 8)
    tap_element(ctl_pad, "#keys [data-mod=Control]")
    assert ctl_pad.eval("document.querySelector('#keys [data-mod=Control]').getAttribute('aria-pressed')") == "true"
    ctl_pad.call("Input.insertText", {"text": "c"})
    ctl_pad.wait_for("document.querySelector('#keys [data-mod=Control]').getAttribute('aria-pressed') === 'false'")
    ctl_pad.call("Input.insertText", {"text": "v"})  # Ctrl was used up: plain text
    # Locked: two taps, two keys, a third tap unlocks.
    tap_element(ctl_pad, "#keys [data-mod=Control]")
    tap_element(ctl_pad, "#keys [data-mod=Control]")
    assert ctl_pad.state()["modifiers"]["Control"] == "locked"
    key_event(ctl_pad, "a", "KeyA", 65, text="a")
    ctl_pad.call("Input.insertText", {"text": "x"})
    tap_element(ctl_pad, "#keys [data-mod=Control]")
    assert ctl_pad.state()["modifiers"]["Control"] == "off"
    # Key row: Tab, Shift + ArrowLeft, volume up.
    tap_element(ctl_pad, "#keys [data-key=Tab]")
    tap_element(ctl_pad, "#keys [data-mod=Shift]")
    tap_element(ctl_pad, "#keys [data-key=ArrowLeft]")
    tap_element(ctl_pad, "#keys [data-key=AudioVolumeUp]")
    # A sticky Alt while the keyboard composes (Gboard composes every word): the first
    # composed character is the key, the composition is dropped.
    tap_element(ctl_pad, "#keys [data-mod=Alt]")
    ctl_pad.call("Input.imeSetComposition", {"text": "f", "selectionStart": 1, "selectionEnd": 1})
    ctl_pad.wait_for("window.gesturepad.modifiers.Alt === 'off'")
    ctl_pad.call("Input.insertText", {"text": "g"})
    expected = [
        {"type": "key", "key": "Enter"},
        {"type": "key", "key": "Backspace"},
        {"type": "key", "key": "c", "modifiers": ["Control"]},
        {"type": "text", "text": "v"},
        {"type": "key", "key": "a", "modifiers": ["Control"]},
        {"type": "key", "key": "x", "modifiers": ["Control"]},
        {"type": "key", "key": "Tab"},
        {"type": "key", "key": "ArrowLeft", "modifiers": ["Shift"]},
        {"type": "key", "key": "AudioVolumeUp"},
        {"type": "key", "key": "f", "modifiers": ["Alt"]},
        {"type": "text", "text": "g"},
    ]
    wait_wire(ctl_pad, len(expected) + 1)
    assert typed(ctl_pad) == expected
    assert not [e for e in ctl_pad.state()["errors"]], ctl_pad.state()["errors"]
    no_console_errors(ctl_pad)


def test_keyboard_button_toggles_and_keeps_focus(ctl_pad):
    """The Keyboard button opens (focus in the hidden input), a key of the row keeps the focus
    (the soft keyboard stays up), the button again closes; closed, nothing covers the surface."""
    open_keyboard(ctl_pad)
    tap_element(ctl_pad, "#keys [data-key=Escape]")
    assert ctl_pad.eval("document.activeElement.id") == "kbd-input"
    tap_element(ctl_pad, "#keyboard")
    ctl_pad.wait_for("!window.gesturepad.keyboard.open")
    assert ctl_pad.eval("document.activeElement.id") != "kbd-input"
    assert not shown(ctl_pad, "#keys")
    assert ctl_pad.eval("document.elementFromPoint(195, 800).id") == "surface"
    assert typed(ctl_pad) == [{"type": "key", "key": "Escape"}]


# ---- mouse-button bar ------------------------------------------------------------------------

def test_mouse_bar_click_and_hold(ctl_pad):
    """The bar (off by default, remembered): a short press on Right sends a click; holding Left
    sends down, then up at release."""
    assert not shown(ctl_pad, "#mousebar")
    tap_element(ctl_pad, "#mousebar-toggle")
    ctl_pad.wait_for("window.gesturepad.mouseBar === true")
    assert shown(ctl_pad, "#mousebar")
    tap_element(ctl_pad, "#mousebar [data-button=right]", hold_ms=60)
    tap_element(ctl_pad, "#mousebar [data-button=left]", hold_ms=500)
    sent = wait_wire(ctl_pad, 4)
    assert typed(ctl_pad) == [
        {"type": "button", "button": "right", "action": "click"},
        {"type": "button", "button": "left", "action": "down"},
        {"type": "button", "button": "left", "action": "up"},
    ], sent
    # The bar is remembered on the phone.
    ctl_pad.call("Page.reload")
    ctl_pad.wait_for("window.gesturepad && window.gesturepad.status === 'live' && !!window.gesturepad.settings", 8)
    assert shown(ctl_pad, "#mousebar")
    no_console_errors(ctl_pad)


# ---- settings ----------------------------------------------------------------------------------

def set_range(page, name: str, fraction: float) -> float:
    """A finger taps the slider's track at `fraction` of its width; returns the value it took."""
    box = page.eval(f"(function(r){{return [r.left, r.top + r.height / 2, r.width];}})"
                    f"(document.querySelector('#sheet [name={name}]').getBoundingClientRect())")
    p = Player(page, realtime=True)
    p.down(0, f8=(box[0] + box[2] * fraction, box[1]))
    p.up(60)
    p.finish()
    page.wait_for(f"window.gesturepad.settings && String(window.gesturepad.settings.{name}) === document.querySelector('#sheet [name={name}]').value")
    return float(page.eval(f"document.querySelector('#sheet [name={name}]').value"))


def test_settings_persist_across_reload_and_are_sent_after_welcome(ctl_pad):
    """Changing the speed and acceleration in the sheet sends them and shows the answer; after a
    reload they are still set, sent right after the welcome, and answered in force."""
    tap_element(ctl_pad, "#settings-open")
    ctl_pad.wait_for("window.gesturepad.sheetOpen === true")
    speed = set_range(ctl_pad, "speed", 0.42)
    assert 1.5 <= speed <= 3, speed
    tap_element(ctl_pad, "#sheet [name=acceleration]")
    ctl_pad.wait_for("window.gesturepad.settings.acceleration === 'flat'")
    sent = wire_messages(ctl_pad, ("settings",))
    assert sent[1:] == [{"type": "settings", "speed": speed}, {"type": "settings", "acceleration": "flat"}]
    assert ctl_pad.eval("document.querySelector('output[for=set-speed]').textContent") == f"{speed:.1f}×"
    assert ctl_pad.eval("JSON.parse(localStorage.getItem('gesturepad.settings'))") == {"speed": speed, "acceleration": "flat"}

    ctl_pad.frames_sent.clear()
    ctl_pad.frames_received.clear()
    ctl_pad.call("Page.reload")
    ctl_pad.wait_for("window.gesturepad && window.gesturepad.status === 'live' && !!window.gesturepad.settings "
                     "&& window.gesturepad.settings.acceleration === 'flat'", 8)
    first = [m for m in json.loads(ctl_pad.wire_sent()[2]) if m["type"] == "settings"]  # after auth and hello
    assert first == [{"type": "settings"}, {"type": "settings", "speed": speed, "acceleration": "flat"}]
    st = ctl_pad.state()
    assert st["settings"]["speed"] == speed and st["settings"]["acceleration"] == "flat"
    assert st["settingsDefaults"]["speed"] == 1 and st["settingsDefaults"]["acceleration"] == "adaptive"
    tap_element(ctl_pad, "#settings-open")
    assert float(ctl_pad.eval("document.querySelector('#sheet [name=speed]').value")) == speed
    assert ctl_pad.eval("document.querySelector('#sheet [name=acceleration]').checked") is False
    # Reset: back to the connection's defaults, nothing kept on the phone.
    tap_element(ctl_pad, "#sheet [data-action=reset]")
    ctl_pad.wait_for("window.gesturepad.settings.speed === 1 && window.gesturepad.settings.acceleration === 'adaptive'")
    assert ctl_pad.eval("localStorage.getItem('gesturepad.settings')") is None
    tap_element(ctl_pad, "#sheet [data-action=close]")
    ctl_pad.wait_for("window.gesturepad.sheetOpen === false")
    no_console_errors(ctl_pad)


# ---- haptics ------------------------------------------------------------------------------------

VIBRATE_SPY = "window.__vibrations = []; navigator.vibrate = function (p) { window.__vibrations.push(p); return true; };"


def test_haptics_on_click_bar_and_drag_lock(browser, ctl_server, x):
    """navigator.vibrate gets a short pulse when a tap clicks and when the bar clicks, and a
    double pulse when a drag ends with the button locked (drag lock on): the X server agrees
    that the button stayed down."""
    from x11_harness import BUTTON1_MASK

    page = open_ctl_pad(browser, ctl_server, script=VIBRATE_SPY)
    try:
        p = Player(page)
        p.down(0, f1=(200, 500))
        p.up(60)
        p.finish()
        page.wait_for("window.__vibrations.length >= 1")
        assert page.eval("window.__vibrations")[0] == 12
        assert page.state()["haptics"][0]["why"] == "click"
        # Drag lock on (through the sheet), then tap, touch again and drag, lift.
        tap_element(page, "#settings-open")
        tap_element(page, "#sheet [name=dragLock]")
        page.wait_for("window.gesturepad.settings.dragLock === true")
        tap_element(page, "#sheet [data-action=close]")
        time.sleep(0.4)  # the first tap's button release is long done
        tap_and_drag(page)
        page.wait_for("window.gesturepad.haptics.some(function(h){return h.why === 'drag lock';})")
        assert [15, 60, 15] in page.eval("window.__vibrations")
        state = x.wait_pointer(lambda s: s[2] & BUTTON1_MASK, timeout=1)
        assert state[2] & BUTTON1_MASK, "the X server should hold button 1 after the locked drag"
        x.wait_pointer(lambda s: not s[2] & BUTTON1_MASK, timeout=3)  # the lock times out
        # The bar's click.
        tap_element(page, "#mousebar-toggle")
        before = page.eval("window.__vibrations.length")
        tap_element(page, "#mousebar [data-button=middle]")
        page.wait_for(f"window.__vibrations.length > {before}")
        assert page.eval("window.__vibrations")[before] == 12
        assert page.state()["haptics"][-1]["why"] == "click"
        no_console_errors(page)
    finally:
        forget_prefs(page)
        page.close()


# ---- end to end: what reaches the computer --------------------------------------------------

def test_end_to_end_keys_and_buttons_reach_the_x_window(ctl_pad, x):
    """The issue's scenario against `--control x11` on Xvfb: tap Keyboard, type with
    Input.insertText and an IME composition, Enter, Backspace, a sticky Ctrl then c, a right
    click from the bar — the X window receives exactly those characters, keys and buttons."""
    from x11_harness import buttons, describe, keys
    from x11_harness import typed as x_typed

    open_keyboard(ctl_pad)
    ctl_pad.call("Input.insertText", {"text": "Hello "})
    for step in ("n", "ni", "nih", "niha", "nihao"):
        ctl_pad.call("Input.imeSetComposition", {"text": step, "selectionStart": len(step), "selectionEnd": len(step)})
    ctl_pad.call("Input.insertText", {"text": "你好"})
    x.wait_for(lambda ev: len(x_typed(ev)) >= 8, x.start, timeout=5)
    events = x.wait_quiet(x.start, quiet=0.2)
    assert x_typed(events) == "Hello 你好", f"the window got: {describe(events)}"

    mark = x.mark()
    key_event(ctl_pad, "Enter", "Enter", 13)
    key_event(ctl_pad, "Backspace", "Backspace", 8)
    tap_element(ctl_pad, "#keys [data-mod=Control]")
    ctl_pad.call("Input.insertText", {"text": "c"})
    x.wait_for(lambda ev: ("up", "Control") in keys(ev), mark, timeout=5)
    events = x.wait_quiet(mark, quiet=0.2)
    assert keys(events) == [("down", "Enter"), ("up", "Enter"), ("down", "BackSpace"), ("up", "BackSpace"),
                            ("down", "Control"), ("down", "c"), ("up", "c"), ("up", "Control")], describe(events)
    assert buttons(events) == [], describe(events)

    mark = x.mark()
    tap_element(ctl_pad, "#mousebar-toggle")
    tap_element(ctl_pad, "#mousebar [data-button=right]")
    x.wait_for(lambda ev: ("release", 3) in buttons(ev), mark, timeout=5)
    events = x.wait_quiet(mark, quiet=0.2)
    assert buttons(events) == [("press", 3), ("release", 3)] and keys(events) == [], describe(events)
    assert x.held_keycodes() == []
    no_console_errors(ctl_pad)


def stroke(page, dx: float) -> None:
    """One finger moves `dx` px to the right on the surface (no tap, no long press)."""
    p = Player(page)
    p.down(0, f1=(100, 420))
    p.move(10, 200, step=10, f1=(100 + dx, 420))
    p.up(230)
    p.finish()


def test_speed_from_the_sheet_moves_the_pointer_faster_also_after_reload(ctl_pad, x):
    """Speed changed in the sheet (acceleration flat): a 100 px stroke moves the X pointer
    100 × speed px; after a reload the phone applies it again and the pointer still does."""
    tap_element(ctl_pad, "#settings-open")
    speed = set_range(ctl_pad, "speed", 0.42)
    tap_element(ctl_pad, "#sheet [name=acceleration]")
    ctl_pad.wait_for("window.gesturepad.settings.acceleration === 'flat'")
    tap_element(ctl_pad, "#sheet [data-action=close]")

    for attempt in ("set", "after reload"):
        if attempt == "after reload":
            ctl_pad.call("Page.reload")
            ctl_pad.wait_for("window.gesturepad && window.gesturepad.status === 'live' && window.gesturepad.settings "
                             "&& window.gesturepad.settings.acceleration === 'flat'", 8)
        x.warp(500, 500)
        stroke(ctl_pad, 100)
        moved = x.wait_pointer(lambda s: abs(s[0] - 500 - 100 * speed) <= 1.5, timeout=3)
        assert abs(moved[0] - 500 - 100 * speed) <= 1.5 and moved[1] == 500, \
            f"{attempt}: a 100 px stroke at speed {speed} moved the pointer to {moved[:2]}"


def test_long_paste_is_split_and_control_characters_dropped(ctl_pad):
    """A paste longer than a `text` may hold goes out in pieces of at most 500 code points (never
    splitting a surrogate pair); CR LF becomes LF, other control characters are dropped — so the
    server never has to refuse what the phone typed."""
    open_keyboard(ctl_pad)
    pasted = "é" * 499 + "😀" + "b" * 700 + "\r\nline\u0007two\ttab"
    ctl_pad.call("Input.insertText", {"text": pasted})
    wait_wire(ctl_pad, 4)
    texts = [m["text"] for m in typed(ctl_pad)]
    assert "".join(texts) == "é" * 499 + "😀" + "b" * 700 + "\nlinetwo\ttab"
    assert [len(list(t)) for t in texts] == [500, 500, 212]  # code points per message
    assert texts[0].endswith("😀")
    time.sleep(1.5)  # the server types it (x11); nothing is refused
    assert ctl_pad.state()["errors"] == []
    no_console_errors(ctl_pad)
