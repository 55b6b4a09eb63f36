"""What the page looks like: screenshots left in artifacts/ (and looked at), with the checks a
screenshot cannot make by itself — from the DOM, no text clipped by its box or the window, no two
texts overlapping, every text at WCAG AA contrast (≥ 4.5:1) against what is behind it; from the
live view's frame record, canvas labels apart and inside the screen, rings whole. Plus the
hashchange reconnect."""

from __future__ import annotations

import time

from browser_harness import (
    ARTIFACTS, Player, check_canvas, check_screen, contrast, feed, forget_prefs, has_gesture, no_console_errors,
    open_pad, open_watch, overlaps, set_details, settle, tap_element,
)


def some_gestures(page, x0: float = 0) -> None:
    """A tap, a drag, a double tap and a swipe, so that the feed has rows."""
    p = Player(page)
    p.down(0, f1=(120 + x0, 300))
    p.up(60)
    p.down(500, f1=(100 + x0, 480))
    p.move(520, 300, f1=(220 + x0, 520))
    p.up(900)  # stopped for 80 ms: a drag, not a swipe
    p.down(1300, f1=(250, 250))
    p.up(1350)
    p.down(1420, f1=(252, 252))
    p.up(1470)
    p.down(2000, f1=(60, 650))
    p.move(2010, 120, step=15, f1=(300, 650))
    p.up(2135)
    p.finish()
    time.sleep(max(0.0, p.base + 2.2 - time.time()))  # the next input is stamped after this


def box(page, selector: str) -> dict:
    return page.eval(f"(function(r){{return {{x:r.left,y:r.top,w:r.width,h:r.height,text:{selector!r}}};}})"
                     f"(document.querySelector({selector!r}).getBoundingClientRect())")


def feed_boxes(page) -> list[dict]:
    return page.eval("Array.from(document.querySelectorAll('#feed li')).map(function(li){var r=li.getBoundingClientRect();"
                     "return {x:r.left,y:r.top,w:r.width,h:r.height,text:li.textContent.trim()};})")


def keys_fit(page) -> None:
    """Every key of the row and the bar shows its whole label."""
    over = page.eval("Array.from(document.querySelectorAll('#keys button, #mousebar button')).filter(function(b){"
                     "return b.getClientRects().length && (b.scrollWidth > b.clientWidth + 0.5 || b.scrollHeight > b.clientHeight + 0.5);})"
                     ".map(function(b){return b.textContent.trim() || b.getAttribute('aria-label');})")
    assert over == [], f"key labels wider than their keys: {over}"


def test_screenshot_keyboard_open(ctl_pad):
    """Keyboard open with the special keys and the mouse-button bar, feed rows above them: the
    keys show their whole labels (390 px and 360 px wide), nothing overlaps, contrast ≥ 4.5."""
    some_gestures(ctl_pad)
    settle(ctl_pad, has_gesture("swipe"))
    tap_element(ctl_pad, "#keyboard")
    tap_element(ctl_pad, "#mousebar-toggle")
    tap_element(ctl_pad, "#keys [data-mod=Control]")
    ctl_pad.wait_for("window.gesturepad.keyboard.open && window.gesturepad.mouseBar")
    time.sleep(0.3)  # the feed's fade-in
    ctl_pad.screenshot(str(ARTIFACTS / "keyboard-open.png"))
    check_screen(ctl_pad)
    keys_fit(ctl_pad)
    rows = feed_boxes(ctl_pad)
    assert len(rows) >= 3
    panels = [box(ctl_pad, "#tools"), box(ctl_pad, "#dock")]
    assert not overlaps(rows + panels), f"the feed runs into the toolbar or the dock: {overlaps(rows + panels)}"
    assert ctl_pad.eval("document.elementFromPoint(195, 200).id") == "surface"  # the surface is still there above
    for width, height in ((360, 740), (844, 390)):  # a narrow phone; a phone on its side
        ctl_pad.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True})
        ctl_pad.wait_for(f"innerWidth === {width}")
        time.sleep(0.3)
        check_screen(ctl_pad)
        keys_fit(ctl_pad)
        rows = feed_boxes(ctl_pad)
        panels = [box(ctl_pad, "#tools"), box(ctl_pad, "#dock"), box(ctl_pad, ".bar")]
        assert not overlaps(rows + panels), (width, overlaps(rows + panels))
    ctl_pad.screenshot(str(ARTIFACTS / "keyboard-open-landscape.png"))
    no_console_errors(ctl_pad)


def test_screenshot_settings_sheet(ctl_pad):
    """The settings sheet: every row readable, nothing clipped or overlapping, contrast ≥ 4.5
    (the page behind is dimmed by the modal backdrop and left out)."""
    tap_element(ctl_pad, "#settings-open")
    ctl_pad.wait_for("window.gesturepad.sheetOpen === true")
    time.sleep(0.2)
    ctl_pad.screenshot(str(ARTIFACTS / "settings-sheet.png"))
    boxes = check_screen(ctl_pad, "#sheet")
    words = " ".join(b["text"] for b in boxes)
    for label in ("Pointer speed", "Acceleration", "Natural scrolling", "Tap to click", "Drag lock", "Left-handed"):
        assert label in words
    # The sheet is modal: the feed, toolbar and dock are hidden behind it.
    assert ctl_pad.eval("getComputedStyle(document.getElementById('feed')).visibility") == "hidden"
    no_console_errors(ctl_pad)


def hold(page, x: float, y: float, shot: str | None) -> dict:
    """Holds a finger at (x, y) in real time until the long press has repeated a few times,
    checks (and optionally screenshots) the live view, then lifts."""
    p = Player(page, realtime=True)
    p.down(0, f1=(x, y))
    p.finish()
    page.wait_for("window.gesturepad.received.filter(function(m){return m.gesture==='repeat';}).length >= 3", 5)
    time.sleep(0.05)
    frame = check_canvas(page, 390, 844, top=52)
    if shot:
        page.screenshot(str(ARTIFACTS / shot))
    p.up((time.time() - p.base) * 1000 + 30)
    p.finish()
    settle(page, has_gesture("longPress", "ended"))
    return frame


def test_screenshot_long_press_near_the_edge(pad):
    """A long press at the left edge (details mode: hold, long press and repeat labels at once):
    the labels do not overlap and stay on screen, the rings stay whole; in the calm mode a long
    press in the bottom-right corner shows one label, "long press …"."""
    set_details(pad, True)
    frame = hold(pad, 6, 430, "long-press-edge.png")
    texts = [lb["text"] for lb in frame["labels"]]
    assert any(t.startswith("long press") for t in texts) and any(t.startswith("hold") for t in texts), texts
    assert any(t.startswith("repeat") for t in texts), texts
    assert sum(t.startswith("repeat") for t in texts) == 1, f"one repeat label at a time: {texts}"
    assert len(frame["rings"]) >= 2
    set_details(pad, False)
    time.sleep(1.3)  # the first long press has faded out
    pad.eval("window.gesturepad.received.length = 0, 1")
    frame = hold(pad, 386, 838, None)
    assert [lb["text"].split(" ")[:2] for lb in frame["labels"]] == [["long", "press"]], frame["labels"]
    no_console_errors(pad)


def watch_at(watch, width: int, height: int, mobile: bool) -> None:
    watch.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 3 if mobile else 1,
                                                      "mobile": mobile})
    watch.wait_for(f"innerWidth === {width} && innerHeight === {height}")
    time.sleep(0.3)


def test_observer_never_clips_from_360_px_to_4k(browser, server):
    """The observer with a full feed (more events than fit), at 360 × 740 (phone), 1920 × 1080 and
    3840 × 2160, in the calm and the details mode: no text clipped, no overlaps, contrast ≥ 4.5;
    canvas labels apart; screenshots at 360 px and 1920 px."""
    watch = open_watch(browser, server)
    pad = open_pad(browser, server)
    try:
        watch_at(watch, 360, 740, True)
        session = pad.state()["session"]
        for i in range(3):
            some_gestures(pad, x0=i * 20)
        watch.wait_for("window.gesturepad.received.filter(function(m){return m.gesture==='swipe';}).length === 3", 8)
        # a pinch, so that a continuous gesture is drawn while the screenshots are taken
        p = Player(pad)
        p.down(0, f1=(145, 420), f2=(245, 420))
        p.move(20, 300, f1=(95, 420), f2=(295, 420))
        p.finish()
        watch.wait_for("window.gesturepad.drawn.pinch > 2")
        time.sleep(0.3)
        watch.screenshot(str(ARTIFACTS / "observer-360.png"))
        check_screen(watch)
        check_canvas(watch, 360, 740)
        rows = feed(watch)
        assert rows and all(r["session"] == session for r in rows)
        assert not any(r["gesture"] in ("timedPress", "singleTapConfirmed", "press", "release", "end") for r in rows)
        assert not overlaps(feed_boxes(watch) + [box(watch, ".sessions")]), "the feed runs into the session list"
        watch_at(watch, 1920, 1080, False)
        watch.screenshot(str(ARTIFACTS / "observer-1920.png"))
        check_screen(watch)
        check_canvas(watch, 1920, 1080)
        watch_at(watch, 3840, 2160, False)
        check_screen(watch)
        set_details(watch, True)
        for size in ((3840, 2160, False), (1920, 1080, False), (360, 740, True)):
            watch_at(watch, *size)
            check_screen(watch)
            assert not overlaps(feed_boxes(watch) + [box(watch, ".sessions")])
        watch.screenshot(str(ARTIFACTS / "observer-360-details.png"))
        assert any(r["gesture"] == "singleTapConfirmed" for r in feed(watch)) or any(r["gesture"] == "end" for r in feed(watch))
        p.up(400)
        p.finish()
        no_console_errors(watch)
    finally:
        forget_prefs(watch)
        pad.close()
        watch.close()


def test_canvas_label_contrast(pad):
    """Canvas labels (marks.js LABEL: light text on a dark pill) stay above 4.5:1 over black and
    over white, whatever the drawing behind them."""
    label = pad.module("js/marks.js", "m.LABEL")
    text = [int(label["text"][i:i + 2], 16) for i in (1, 3, 5)]
    *pill, alpha = [float(v) for v in label["pill"][5:-1].split(",")]
    for behind in ((0, 0, 0), (255, 255, 255)):
        bg = [pill[i] * alpha + behind[i] * (1 - alpha) for i in range(3)]
        assert contrast(text, bg) >= 4.5, (behind, contrast(text, bg))


# ---- hashchange --------------------------------------------------------------------------------

def test_hashchange_with_a_new_token_reconnects(browser, server):
    """A stale tab (refused, not paired) gets the new link: only the #token changes, the page
    reconnects with it at once and is paired (it keeps its device key, not the secret). A live
    paired tab given a link again — the same, or another — changes nothing: its key decides."""
    page = open_pad(browser, server, token="stale-token-1", wait_live=False, unpaired=True)
    try:
        page.wait_for("window.gesturepad.status === 'refused'", 8)
        page.eval(f"location.hash = '#token={server.token}', 1")
        page.wait_for("window.gesturepad.status === 'live'", 5)
        assert server.token not in page.eval("location.href")
        assert page.eval("localStorage.getItem('gesturepad.token')") is None
        assert len(page.eval("localStorage.getItem('gesturepad.deviceKey')")) == 43
        # The stale link's connection opened, and its proof was refused (4410).
        assert page.state()["connects"] == 2 and page.state()["closes"] == [4410]
        page.eval(f"location.hash = '#token={server.token}', 1")  # the same link again: stays as it is
        page.eval("location.hash = '#token=another-token-2', 1")  # another one: the key decides
        time.sleep(0.3)
        assert page.state()["connects"] == 2 and page.state()["status"] == "live"
        assert "another-token-2" not in page.eval("location.href + document.body.innerText")
        p = Player(page)
        p.down(0, f1=(150, 300))
        p.up(60)
        p.finish()
        st = settle(page, has_gesture("tap"))
        assert st["session"]
        no_console_errors(page)
    finally:
        page.close()
