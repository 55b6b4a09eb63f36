"""What the computer holds, as the server says it (the `held` message, docs/protocol.md), shown
on the page (docs/page.md "Held buttons"): headless Chromium touching the page of a real
`gesturepad serve --control x11` on a private Xvfb. The bar's Left button has the pressed look
exactly while the server's messages say left is held, and the X server agrees; with a
configured `dragLockTimeout` of 2,500 ms the lock lasts 2,500 ms — the page once guessed
1,000 ms whatever the server did."""
from __future__ import annotations

import pytest
from browser_harness import (
    Player, Server, center, feed, forget_prefs, no_console_errors, open_ctl_pad, pointer_messages, tap_and_drag,
    tap_element,
)

LEFT = "#mousebar [data-button=left]"
SHOWN = f"document.querySelector('{LEFT}').classList.contains('held')"
HIDDEN = f"!{SHOWN}"


@pytest.fixture(scope="module")
def lock_server(xserver, tmp_path_factory):
    """`gesturepad serve --control x11` with drag lock on and a 2,500 ms drag-lock timeout."""
    config = tmp_path_factory.mktemp("held") / "gesturepad.yaml"
    config.write_text("control:\n  dragLock: true\n  dragLockTimeout: 2500\n")
    srv = Server(control="x11", env={"DISPLAY": xserver.name}, extra=["--config", str(config)],
                 log_name="browser-server-held.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def held_messages(page) -> list[dict]:
    return [m for m in page.state()["received"] if m.get("type") == "held"]


def lifts(page) -> list[float]:
    """The page clock `t` of every touch `up` the page sent."""
    return [m["t"] for m in page.state()["sent"] if m.get("type") == "up" and m.get("pointerType") == "touch"]


def open_bar(page) -> None:
    tap_element(page, "#mousebar-toggle")
    page.wait_for("window.gesturepad.mouseBar === true")
    assert page.eval(HIDDEN), "nothing is held yet"


def button1(x, wait_for: bool | None = None) -> bool:
    """Whether the X server holds button 1 — after waiting (up to 1 s) for it to be `wait_for`."""
    from x11_harness import BUTTON1_MASK

    if wait_for is not None:
        x.wait_pointer(lambda s: bool(s[2] & BUTTON1_MASK) == wait_for, timeout=1)
    return bool(x.pointer()[2] & BUTTON1_MASK)


def test_tap_and_drag_shows_left_held_while_the_server_holds_it(ctl_pad, x):
    """Tap, touch again and drag: the bar's Left button looks pressed from the server's first
    `held` (the tap, until its multiTapInterval ends) through the drag, and not after the lift
    (drag lock off) — the messages say left with `until`, left, nothing; the X server holds
    button 1 while it is shown; the feed calls the stroke a drag."""
    page = ctl_pad
    open_bar(page)
    p = tap_and_drag(page, lift=False)
    page.wait_for(SHOWN)
    assert button1(x, wait_for=True), "X holds button 1 while it is shown"
    told = held_messages(page)
    # The tap's up is the last touch up sent (the drag's finger is still down): on a loaded
    # machine an earlier up has once come first (seen once in make test: the held message's
    # `until` was 50 ms after the first up, the tap's own).
    tap_t = lifts(page)[-1]
    assert [(m["buttons"], m["keys"], m.get("until")) for m in told] == [
        (["left"], [], tap_t + page.state()["config"]["multiTapInterval"]), (["left"], [], None)], \
        (told, pointer_messages(page.state()))
    assert page.state()["held"]["buttons"] == ["left"]
    p.up(400)
    p.finish()
    page.wait_for(HIDDEN)
    assert held_messages(page)[-1] == {"type": "held", "buttons": [], "keys": []}
    assert not button1(x, wait_for=False)
    page.wait_for("document.querySelector('#feed li[data-gesture=drag]') !== null")
    assert feed(page)[0]["text"].startswith("drag →"), feed(page)
    assert not [h for h in page.state()["haptics"] if h["why"] == "drag lock"], "no lock with drag lock off"
    no_console_errors(page)


def test_bar_hold_is_shown_as_the_server_holds_it(ctl_pad, x):
    """Holding the bar's Left button: once the server says left is held it has the held look
    (beside the finger's own pressed look), and loses it when the server says it let go."""
    page = ctl_pad
    open_bar(page)
    bx, by = center(page, LEFT)
    p = Player(page, realtime=True)
    p.down(0, f9=(bx, by))
    p.finish()
    page.wait_for(SHOWN)
    assert held_messages(page)[-1] == {"type": "held", "buttons": ["left"], "keys": []}
    assert button1(x, wait_for=True)
    p.up(500)
    p.finish()
    page.wait_for(HIDDEN)
    assert held_messages(page)[-1]["buttons"] == []
    assert not button1(x, wait_for=False)
    no_console_errors(page)


def test_configured_drag_lock_timeout_is_what_the_page_shows(browser, lock_server, x):
    """dragLockTimeout 2,500 in the configuration: a locked drag's `held` says until = lift t +
    2,500 (the page's clock), the page buzzes the lock, and Left stays held past the 1,000 ms
    the page once assumed — a touch then continues the drag (the feed says drag, not pointer);
    the lift locks again, and the page shows the release when the server sends it, no earlier
    than `until`, with the X server letting go of button 1 then."""
    page = open_ctl_pad(browser, lock_server, script="navigator.vibrate = function () { return true; };")
    try:
        assert page.state()["settings"]["dragLock"] is True
        open_bar(page)
        tap_and_drag(page)
        page.wait_for("window.gesturepad.held.until !== null")
        lift = lifts(page)[-1]
        assert page.state()["held"]["buttons"] == ["left"]
        assert page.state()["held"]["until"] == pytest.approx(lift + 2500, abs=1e-3)
        assert page.eval(SHOWN) and button1(x, wait_for=True)
        assert [h["pattern"] for h in page.state()["haptics"] if h["why"] == "drag lock"] == [[15, 60, 15]]

        # Past the 1,000 ms the old page assumed: still held, and a touch drags on.
        page.wait_for(f"performance.now() > {lift + 1500}", 4)
        assert page.eval(SHOWN) and button1(x), "held 1,500 ms after the lift"
        p = Player(page, realtime=True)
        p.down(0, f1=(150, 400))
        p.move(20, 200, f1=(220, 460))
        p.finish()
        page.wait_for("document.querySelector('#feed li[data-gesture=drag]') !== null")
        assert feed(page)[0]["text"].startswith("drag →"), feed(page)
        assert page.state()["held"]["until"] is None
        p.up(300)
        p.finish()
        page.wait_for("window.gesturepad.held.until !== null")
        relift = lifts(page)[-1]
        assert page.state()["held"]["until"] == pytest.approx(relift + 2500, abs=1e-3)

        page.wait_for(HIDDEN, 6)
        held = page.state()["held"]
        assert held["buttons"] == [] and held["at"] >= relift + 2500 - 5, (held, relift)
        assert not button1(x, wait_for=False)
        no_console_errors(page)
    finally:
        forget_prefs(page)
        page.close()
