"""The scenario suite's controls for the computer and the installed app, in every engine (the
`engine` fixture): the page's keyboard, the button bar and the settings sheet against a server
that drives a private X display (judged on the page and in the X window), and over `--tls`
the service worker and the page's shell offline."""

from __future__ import annotations

from browser_harness import CACHED_PATHS_JS, sw_missing
from engines import Touches, open_page


def tap(page, selector: str, hold_ms: float = 60) -> None:
    """A finger (WebKit: the mouse) taps the element's centre, in real time."""
    page.tap_at(*center(page, selector), hold_ms=hold_ms)


def sent(page, *types: str) -> list[dict]:
    return [m for m in page.state()["sent"] if m.get("type") in types]


def test_typing_from_the_pages_keyboard(ctl_page, x):
    from x11_harness import describe, keys, typed

    tap(ctl_page, "#keyboard")
    ctl_page.wait_for("window.gesturepad.keyboard && window.gesturepad.keyboard.open && document.activeElement.id === 'kbd-input'")
    ctl_page.type_text("Hello, wörld")
    # A tap on the surface leaves the focus (and a phone's soft keyboard) where it is.
    assert ctl_page.eval("document.elementFromPoint(195, 300).id") == "surface"
    ctl_page.tap_at(195, 300)
    assert ctl_page.eval("document.activeElement.id") == "kbd-input"
    ctl_page.enter()
    x.wait_for(lambda ev: ("up", "Enter") in keys(ev), x.start, timeout=8)
    events = x.wait_quiet(x.start, quiet=0.2)
    assert "".join(m["text"] for m in sent(ctl_page, "text")) == "Hello, wörld"
    assert [m["key"] for m in sent(ctl_page, "key")] == ["Enter"]
    assert typed(events) == "Hello, wörld\n", describe(events)  # Enter types a line break
    assert keys(events)[-2:] == [("down", "Enter"), ("up", "Enter")], describe(events)
    assert x.held_keycodes() == []
    assert ctl_page.console_errors() == []


def test_button_bar(ctl_page, x):
    from x11_harness import buttons, describe

    tap(ctl_page, "#mousebar-toggle")
    ctl_page.wait_for("window.gesturepad.mouseBar === true")
    tap(ctl_page, "#mousebar [data-button=right]")
    tap(ctl_page, "#mousebar [data-button=left]", hold_ms=500)
    x.wait_for(lambda ev: ("release", 1) in buttons(ev), x.start, timeout=8)
    events = x.wait_quiet(x.start, quiet=0.2)
    assert [(m["button"], m["action"]) for m in sent(ctl_page, "button")] == [("right", "click"), ("left", "down"), ("left", "up")]
    assert buttons(events, include_wheel=False) == [("press", 3), ("release", 3), ("press", 1), ("release", 1)], describe(events)
    assert ctl_page.console_errors() == []


def center(page, selector: str) -> tuple[int, int]:
    return tuple(page.eval(f"(function (r) {{ return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; }})"
                           f"(document.querySelector({selector!r}).getBoundingClientRect())"))


def test_bar_held_while_another_finger_drags(ctl_page, x):
    """Left held on the bar by one finger while another strokes the surface: a drag with button 1
    held on the computer. Both fingers must arrive (in Gecko too)."""
    from x11_harness import BUTTON1_MASK, buttons, describe

    tap(ctl_page, "#mousebar-toggle")
    ctl_page.wait_for("window.gesturepad.mouseBar === true")
    bx, by = center(ctl_page, "#mousebar [data-button=left]")
    t = Touches().down(0, f1=(bx, by)).down(400, f2=(120, 320)).move(420, 300, f2=(240, 320)).up(800, 2).up(900, 1)
    ctl_page.play(t, realtime=True)
    x.wait_for(lambda ev: ("release", 1) in buttons(ev), x.start, timeout=8)
    events = x.wait_quiet(x.start, quiet=0.2)
    assert buttons(events, include_wheel=False) == [("press", 1), ("release", 1)], describe(events)
    held = [e for e in events if e.kind == "motion" and e.state & BUTTON1_MASK]
    assert held and held[-1].x - held[0].x >= 60, describe(events, motion=True)
    downs = [m for m in sent(ctl_page, "down")]
    assert len(downs) == 1 and downs[0]["x"] == 120, f"{ctl_page.engine}: the surface finger's down: {downs}"
    assert [(m["button"], m["action"]) for m in sent(ctl_page, "button")] == [("left", "down"), ("left", "up")]


def test_settings_sheet_change_kept_after_reload(ctl_page):
    tap(ctl_page, "#settings-open")
    ctl_page.wait_for("window.gesturepad.sheetOpen === true")
    tap(ctl_page, "#sheet [name=acceleration]")
    ctl_page.wait_for("window.gesturepad.settings.acceleration === 'flat'")
    assert {"type": "settings", "acceleration": "flat"} in sent(ctl_page, "settings")
    ctl_page.reload()
    ctl_page.live()
    # Sent again right after the welcome, and answered in force.
    ctl_page.wait_for("window.gesturepad.settings && window.gesturepad.settings.acceleration === 'flat'")
    assert any(m.get("acceleration") == "flat" for m in sent(ctl_page, "settings"))
    assert ctl_page.eval("JSON.parse(localStorage.getItem('gesturepad.settings'))") == {"acceleration": "flat"}
    assert ctl_page.console_errors() == []


def test_service_worker_and_the_shell_offline(engine, tls_scenario_server):
    """Over --tls the engine trusts the local CA (conftest.py says how), the service worker
    registers and keeps its files; with the server gone the shell still loads from it."""
    page = open_page(engine, tls_scenario_server)
    try:
        assert page.eval("window.isSecureContext && location.protocol") == "https:"
        page.wait_for("window.gesturepad.serviceWorker === true", 10)
        page.wait_for("navigator.serviceWorker.ready.then(function (r) { return !!r.active; })", 10)
        assert sw_missing(page.eval(CACHED_PATHS_JS)) == []
        tls_scenario_server.stop()
        try:
            page.reload()
            # The shell, its modules and styles from the worker: the page runs, and says it is not live.
            page.wait_for("window.gesturepad && window.gesturepad.status !== 'live' && !!document.getElementById('surface')", 10)
            assert page.eval("getComputedStyle(document.body).position") == "fixed"
        finally:
            tls_scenario_server.start()
        page.live(20)
        assert page.console_errors() == []
    finally:
        page.close()

