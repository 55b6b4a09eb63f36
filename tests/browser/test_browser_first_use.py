"""What a new user meets on the page: one clear state while the server is down, the icon-only
buttons named on the first run, strokes begun beside a control staying on the touch surface,
a feed that says what the computer did."""

from __future__ import annotations

import json
import time

from browser_harness import (
    ARTIFACTS, Player, Server, check_screen, feed, forget_prefs, has_gesture, no_console_errors, open_ctl_pad,
    open_watch, overlaps, pointer_messages, set_details, settle, tap_element, wire_messages,
)


def displayed(page, selector: str) -> bool:
    return page.eval(f"document.querySelector({json.dumps(selector)}).getClientRects().length > 0")


# ---- not live: one clear state --------------------------------------------------------------

def test_not_live_the_hint_goes_the_controls_are_disabled_and_the_notice_says_what_to_do(browser, xserver, xwatcher):
    """Server down: no "Touchpad ready" hint, every toolbar button disabled (a tap on one does
    nothing), the key row and button bar closed, and a notice with what to do; back live, all
    of it works again."""
    server = Server(control="x11", env={"DISPLAY": xserver.name}, log_name="browser-server-offline.log")
    server.start()
    page = open_ctl_pad(browser, server)
    try:
        page.wait_for("window.gesturepad.hint && window.gesturepad.hint.shown")
        assert page.eval("document.querySelector('#hint p').textContent").startswith("Touchpad ready")
        tap_element(page, "#mousebar-toggle")
        page.wait_for("window.gesturepad.mouseBar === true && " + "!document.getElementById('mousebar').hidden")
        server.stop()
        page.wait_for("window.gesturepad.status === 'reconnecting'", 5)
        st = page.state()
        assert st["hint"]["shown"] is False and not displayed(page, "#hint")
        assert st["controlUsable"] is False
        assert page.eval("Array.from(document.querySelectorAll('#tools button')).every(function(b){return b.disabled;})")
        assert displayed(page, "#tools"), "the toolbar stays where it is, disabled"
        assert not displayed(page, "#dock") and not displayed(page, "#mousebar")
        notice = page.eval("document.getElementById('notice').innerText")
        assert "Not connected" in notice and "running on the computer" in notice and "reconnects by itself" in notice
        tap_element(page, "#settings-open")
        tap_element(page, "#keyboard")
        time.sleep(0.2)
        assert page.eval("!!window.gesturepad.sheetOpen") is False
        assert page.eval("window.gesturepad.keyboard ? window.gesturepad.keyboard.open : false") is False
        page.screenshot(str(ARTIFACTS / "not-live.png"))
        check_screen(page)
        server.start()
        page.wait_for("window.gesturepad.status === 'live' && window.gesturepad.controlUsable === true", 10)
        assert page.eval("Array.from(document.querySelectorAll('#tools button')).every(function(b){return !b.disabled;})")
        assert displayed(page, "#mousebar") and displayed(page, "#hint")
        assert page.eval("document.getElementById('notice').hidden") is True
        no_console_errors(page)
    finally:
        forget_prefs(page)
        page.close()
        server.stop()


# ---- the first run: the buttons named ------------------------------------------------------

LEGEND = {"media-open": "Media", "presenter-open": "Presenter", "keyboard": "Keyboard", "mousebar-toggle": "Mouse buttons",
          "settings-open": "Settings", "details": "Details", "watch": "Observer view", "help": "Help",
          "fullscreen": "Full screen"}
# The page asked to hear the media players and the server answered: the Media button is shown
# (docs/page.md "Media").
MEDIA_ANSWERED = "window.gesturepad.received.some(function (m) { return m.type === 'media'; })"


def test_first_run_hint_names_every_icon_button_and_the_keyboard(browser, ctl_server, xwatcher):
    """First run: the hint mentions the keyboard and names each icon-only button shown, with its
    icon; after the first touch it fades, and later visits show the short hint only."""
    page = open_ctl_pad(browser, ctl_server)
    try:
        page.wait_for(MEDIA_ANSWERED)
        st = page.wait_for("window.gesturepad.hint && window.gesturepad.hint.shown && window.gesturepad.hint")
        assert "keyboard" in st["text"].lower()
        legend = LEGEND
        assert sorted(st["legend"]) == sorted(legend)
        rows = page.eval("Array.from(document.querySelectorAll('#legend li')).filter(function(li){return li.getClientRects().length;})"
                         ".map(function(li){return [li.dataset.for, li.textContent.trim(), !!li.querySelector('svg path, svg rect')];})")
        for button, text, has_icon in rows:
            assert text.startswith(legend[button]) and has_icon, (button, text)
        page.screenshot(str(ARTIFACTS / "first-run.png"))
        check_screen(page)
        # The legend (nine rows with media) stays clear of the toolbar's column.
        boxes = page.eval("['#legend', '#tools'].map(function (s) { var r = document.querySelector(s).getBoundingClientRect();"
                          " return {x: r.left, y: r.top, w: r.width, h: r.height, text: s}; })")
        assert not overlaps(boxes), boxes
        p = Player(page)
        p.down(0, f1=(120, 300))
        p.up(60)
        p.finish()
        page.wait_for("!window.gesturepad.hint.shown")
        page.call("Page.reload", {})
        page.wait_for("window.gesturepad && window.gesturepad.status === 'live' && window.gesturepad.hint.shown", 8)
        assert page.state()["hint"]["legend"] == [] and not displayed(page, "#legend")
        no_console_errors(page)
    finally:
        forget_prefs(page)
        page.close()


def test_first_run_hint_without_control_names_the_header_buttons(pad):
    """Control off: the toolbar holds Media alone (the media players need no control), so the
    legend names the header's buttons and Media."""
    pad.wait_for(MEDIA_ANSWERED)
    st = pad.wait_for("window.gesturepad.hint && window.gesturepad.hint.shown && window.gesturepad.hint")
    assert sorted(st["legend"]) == ["details", "fullscreen", "help", "media-open", "watch"]
    assert st["text"].startswith("Touch anywhere")
    host = pad.state()["host"]
    assert pad.eval("document.getElementById('where').textContent") == f"On “{host}”: gestures are shown, not sent to its pointer"


# ---- touches beside a control ---------------------------------------------------------------

CONTROLS = "#details, #watch, #help, #fullscreen, #tools button, #keys button, #mousebar button"

# For each control shown: the first point, 3 to 9 px outside one of its sides, where the touch
# surface itself is (a side facing another control or a panel has none), and the way out.
BESIDE_JS = r"""
(function (selector) {
  var out = [];
  document.querySelectorAll(selector).forEach(function (el, i) {
    var r = el.getBoundingClientRect();
    if (!r.width) return;
    var sides = [[-1, 0], [1, 0], [0, -1], [0, 1]];
    for (var s = 0; s < sides.length; s++) {
      for (var d = 3; d <= 9; d++) {
        var dx = sides[s][0], dy = sides[s][1];
        var x = dx < 0 ? r.left - d : dx > 0 ? r.right + d : r.left + r.width / 2;
        var y = dy < 0 ? r.top - d : dy > 0 ? r.bottom + d : r.top + r.height / 2;
        if (x < 1 || y < 1 || x > innerWidth - 1 || y > innerHeight - 1) continue;
        if (document.elementFromPoint(x, y) === document.getElementById('surface')) {
          out.push({name: el.id || el.dataset.key || el.dataset.mod || el.dataset.button || String(i),
                    x: x, y: y, dx: dx, dy: dy, gap: d});
          return;
        }
      }
    }
  });
  return out;
})
"""


def test_strokes_and_taps_beside_a_control_stay_on_the_surface(ctl_pad):
    """Chromium moves a touch onto a tap target up to 16 px away: a stroke begun a few px from
    any control (header, toolbar, keys, mouse bar), with a fingertip's size, still goes to the
    surface — its `down` is sent where the finger landed — and presses nothing; a tap beside
    the Settings button opens no sheet."""
    tap_element(ctl_pad, "#keyboard")
    tap_element(ctl_pad, "#mousebar-toggle")
    ctl_pad.wait_for("window.gesturepad.keyboard.open && window.gesturepad.mouseBar")
    spots = ctl_pad.eval(f"({BESIDE_JS})({json.dumps(CONTROLS)})")
    names = {s["name"] for s in spots}
    for expected in ("details", "watch", "keyboard", "mousebar-toggle", "settings-open", "Escape", "left", "right"):
        assert expected in names, (expected, sorted(names))
    before_wire = len(wire_messages(ctl_pad))
    p = Player(ctl_pad, radius=12)  # a 24 px fingertip: Chromium's adjustment reaches 12 px
    t = 0.0
    for spot in spots:
        # Away from the control: the side it is on, and along the surface.
        away = (spot["x"] + spot["dx"] * 40 + (30 if spot["dy"] else 0), spot["y"] + spot["dy"] * 40 + (30 if spot["dx"] else 0))
        p.down(t, f1=(spot["x"], spot["y"]))
        p.move(t + 10, 120, f1=away)
        p.up(t + 200)
        t += 400
    p.finish()
    try:  # every stroke's up sent (a stroke given to a control sends nothing: the check below names it)
        settle(ctl_pad, f"g.sent.filter(function(m){{return m.type==='up';}}).length >= {len(spots)}")
    except AssertionError:
        pass
    st = ctl_pad.state()
    downs = [(round(m["x"]), round(m["y"])) for m in pointer_messages(st) if m["type"] == "down"]
    missing = [s["name"] for s in spots if (round(s["x"]), round(s["y"])) not in downs]
    assert not missing, f"touches beside these controls went to the control, not the surface: {missing}"
    assert st["handedBack"] >= 1  # Chromium did move some of them onto a control
    assert len(wire_messages(ctl_pad)) == before_wire, "a control sent something"
    assert ctl_pad.eval("window.gesturepad.keyboard.open && window.gesturepad.mouseBar && !window.gesturepad.sheetOpen")
    assert ctl_pad.eval("!window.gesturepad.details")
    tap_element(ctl_pad, "#keyboard")  # closed: the toolbar alone
    settings = next(s for s in ctl_pad.eval(f"({BESIDE_JS})('#settings-open')"))
    p = Player(ctl_pad, radius=12)
    p.down(0, f1=(settings["x"], settings["y"]))
    p.up(60)
    p.finish(300)
    assert ctl_pad.eval("!window.gesturepad.sheetOpen")
    settle(ctl_pad, has_gesture("tap"))
    no_console_errors(ctl_pad)


# ---- the feed says what the computer did -----------------------------------------------------

def test_feed_shows_what_the_computer_did_and_details_show_the_gestures(browser, ctl_server, ctl_pad):
    """Driving the computer, the calm feed lists clicks, pointer motion (a brisk stroke is no
    "swipe"), and a three-finger swipe with the keys it pressed; the details mode and the
    observer show the engine's gestures, the one-finger swipe included."""
    watch = open_watch(browser, ctl_server)
    settle(ctl_pad, "!!g.settings")
    p = Player(ctl_pad)
    p.down(0, f1=(100, 400))       # a brisk one-finger stroke: the engine calls it a swipe
    p.move(10, 120, step=15, f1=(300, 400))
    p.up(135)
    p.down(1000, f1=(200, 200))    # a tap: a click
    p.up(1050)
    p.down(2000, f1=(200, 500))    # a double tap
    p.up(2050)
    p.down(2150, f1=(200, 500))
    p.up(2200)
    p.down(3000, f1=(150, 300), f2=(220, 300))  # two fingers: a right click
    p.up(3060)
    p.down(4000, f1=(300, 300), f2=(300, 360), f3=(300, 420))  # three fingers to the left
    p.move(4010, 120, step=15, f1=(80, 300), f2=(80, 360), f3=(80, 420))
    p.up(4140)
    p.finish()
    st = settle(ctl_pad, "g.received.filter(function(m){return m.gesture==='swipe';}).length >= 2")
    swipes = [(m["pointers"], m["direction"]) for m in st["received"] if m.get("gesture") == "swipe"]
    assert (1, "right") in swipes and (3, "left") in swipes
    ctl_pad.wait_for("document.querySelectorAll('#feed li').length >= 5")
    rows = [r["text"] for r in feed(ctl_pad)][::-1]  # oldest first
    assert rows[0].startswith("pointer → 200 px"), rows
    assert rows[1:4] == ["click", "double click", "right click"], rows
    assert rows[4] == "swipe left → Alt+ArrowRight", rows
    assert not any(r.startswith("swipe right") for r in rows)
    set_details(ctl_pad, True)
    details = [r["text"] for r in feed(ctl_pad)]
    assert any(r.startswith("swipe left ·") and "3 fingers" in r for r in details), details
    assert any(r.startswith("drag ended") for r in details), details
    set_details(ctl_pad, False)
    try:
        watch.wait_for("Array.from(document.querySelectorAll('#feed li')).some(function(li){"
                       "return /swipe left/.test(li.textContent);})")
        seen = [r["text"] for r in feed(watch)]
        assert any("swipe right" in r for r in seen) and any("double tap" in r for r in seen), seen
        no_console_errors(watch)
    finally:
        watch.close()
    no_console_errors(ctl_pad)

