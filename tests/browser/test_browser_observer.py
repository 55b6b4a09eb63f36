"""What a new user sees in the page and the observer (issue 28), in headless Chromium against a
real server of its own:

- the observer names each session by its phone, keeps a restarted server's sessions apart from
  the last run's (no summed counts, even when a session id is reused) — a desktop browser
  opening it without a key is told about "this browser" (test_browser_pairing.py);
- `gesturepad devices rename` shows on the open page and the observer at once; the forget
  notice is said once;
- the feed says what the computer was told for the page's own text, keys and buttons
  ("typed 8 characters", "Control+C", "right click"), and the observer never shows the text;
- the page says which computer it drives and through which backend, and its help (served by
  the server, no external link) marks that backend.
"""
from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from browser_harness import (
    ARTIFACTS, Player, Server, contrast, feed, no_console_errors, open_pad, open_watch, tap_element, texts,
)
from test_browser_pairing import LIVE, NOTICE, devices


@pytest.fixture
def own_server():
    server = Server(token="observer-browser-secret-Secret0123456789abcdefZ", log_name="browser-observer-server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def typing_server(tmp_path):
    """Control on without a real device: the touchpad backend writes into a file."""
    output = tmp_path / "touchpad-events"
    output.write_bytes(b"")
    server = Server(token="observer-typing-secret-Secret0123456789abcdefZ", control="touchpad", extra=["--test-touchpad-output", str(output)],
                    log_name="browser-observer-typing.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def phone_and_observer(browser, server):
    """A phone tab (paired from the link) and an observer tab, closed afterwards."""
    pad = open_pad(browser, server)
    watch = open_watch(browser, server)
    try:
        yield pad, watch
    finally:
        pad.close()
        watch.close()


def wait_listed(watch, name: str) -> None:
    """Waits until the observer lists a session called `name`."""
    watch.wait_for("Array.from(document.querySelectorAll('#sessions li code'))"
                   f".some(function(c){{return c.textContent === {json.dumps(name)};}})")


def listed(watch) -> list[dict]:
    """The observer's session list as shown: name, its count text, state, run, current or not."""
    return watch.eval(
        "Array.from(document.querySelectorAll('#sessions li[data-session]')).map(function(li){"
        "return {name: li.querySelector('code').textContent, detail: li.querySelector('span').textContent,"
        " state: li.dataset.state, run: li.dataset.run, earlier: li.classList.contains('earlier')};})")


def tap(pad, x: float = 200, y: float = 500) -> None:
    p = Player(pad)
    p.down(0, f1=(x, y))
    p.up(60)
    p.finish(400)


def test_observer_names_sessions_by_phone_and_keeps_runs_apart(browser, own_server):
    with phone_and_observer(browser, own_server) as (pad, watch):
        name = pad.state()["device"]["name"]
        assert name and "Chrome" in name
        wait_listed(watch, name)
        tap(pad)
        tap(pad, 120, 300)
        watch.wait_for("window.gesturepad.sessions.some(function(s){return s.current && s.count >= 2;})")
        first_run = watch.state()["run"]
        before = [s for s in watch.state()["sessions"] if s["current"]]
        assert len(before) == 1 and before[0]["name"] == name
        count = before[0]["count"]

        own_server.stop()
        own_server.start()
        watch.wait_for(f"{LIVE} && window.gesturepad.run && window.gesturepad.run !== {json.dumps(first_run)}", 15)
        pad.wait_for(LIVE, 15)
        watch.wait_for("window.gesturepad.sessions.some(function(s){return s.current && s.state === 'open';})", 8)
        tap(pad)
        watch.wait_for("window.gesturepad.sessions.some(function(s){return s.current && s.count >= 1;})")
        shown = listed(watch)
        now = [s for s in shown if not s["earlier"]]
        earlier = [s for s in shown if s["earlier"]]
        assert [s["name"] for s in now] == [name] and now[0]["state"] == "open"
        assert [s["name"] for s in earlier] == [name] and earlier[0]["state"] == "closed"
        assert earlier[0]["detail"].startswith(f"closed · {count} events") and "earlier run" in earlier[0]["detail"]
        state = watch.state()
        current = [s for s in state["sessions"] if s["current"]][0]
        last_welcome = max(i for i, m in enumerate(state["received"]) if m["type"] == "welcome")
        this_run = [m for m in state["received"][last_welcome:] if m["type"] == "gesture"]
        assert current["count"] == len(this_run), "this run's count is its own, not added to the last run's"
        assert earlier[0]["run"] == first_run and now[0]["run"] == state["run"]
        rows = feed(watch)
        assert rows and rows[0]["text"].startswith(name), rows[0]
        no_console_errors(watch)


def test_rename_shows_at_once_and_the_forget_notice_is_said_once(browser, own_server):
    with phone_and_observer(browser, own_server) as (pad, watch):
        name = pad.state()["device"]["name"]
        wait_listed(watch, name)
        devices(own_server, "rename", name, "Kitchen phone")
        pad.wait_for("document.querySelector('#sheet .row.device small').textContent === 'Kitchen phone'")
        assert pad.eval("localStorage.getItem('gesturepad.deviceName')") == "Kitchen phone"
        wait_listed(watch, "Kitchen phone")
        assert [s["name"] for s in listed(watch)] == ["Kitchen phone"]

        devices(own_server, "forget", "Kitchen phone")
        pad.wait_for("window.gesturepad.status === 'refused' || window.gesturepad.status === 'stopped'"
                     " || !document.querySelector('#notice').hidden", 8)
        text = pad.eval(NOTICE)
        assert text == "This phone was removed on the computer: scan the code again to pair it.", text


def test_feed_says_what_the_computer_was_told_and_the_observer_never_the_text(browser, typing_server):
    with phone_and_observer(browser, typing_server) as (pad, watch):
        pad.wait_for("!!window.gesturepad.settings", 8)
        tap_element(pad, "#keyboard")
        pad.wait_for("window.gesturepad.keyboard && window.gesturepad.keyboard.open")
        pad.call("Input.insertText", {"text": "password"})
        tap_element(pad, "#keys [data-mod=Control]")
        pad.call("Input.insertText", {"text": "c"})
        tap_element(pad, "#mousebar-toggle")
        pad.wait_for("window.gesturepad.mouseBar === true")
        tap_element(pad, "#mousebar [data-button=right]", hold_ms=60)
        wanted = ["right click", "Control+C", "typed 8 characters"]
        pad.wait_for("document.querySelectorAll('#feed li[data-gesture=command]').length === 3", 5)
        mine = [r["text"] for r in feed(pad) if r["gesture"] == "command"]
        assert mine == wanted, mine
        watch.wait_for("document.querySelectorAll('#feed li[data-gesture=command]').length === 3", 5)
        name = pad.state()["device"]["name"]
        theirs = [r["text"] for r in feed(watch) if r["gesture"] == "command"]
        assert theirs == [f"{name} {w}" for w in wanted], theirs
        assert "password" not in watch.eval("document.body.textContent")
        assert not any("password" in json.dumps(m) for m in watch.state()["received"])
        no_console_errors(pad)


def test_page_says_which_computer_and_backend_and_its_help_marks_it(browser, typing_server):
    pad = open_pad(browser, typing_server)
    try:
        host = pad.state()["host"]
        assert host
        assert pad.eval("document.querySelector('#status').title") == f"live — {host} · touchpad"
        # On a phone the pill has no room for it: the hint says it until the first touch.
        assert pad.eval("document.getElementById('where').textContent") == f"Drives “{host}” through touchpad"
        href = pad.eval("document.getElementById('help').getAttribute('href')")
        assert href == f"help.html#host={host}&backend=touchpad"
        tap_element(pad, "#help")
        pad.wait_for("location.pathname.endsWith('/help.html') && document.readyState === 'complete'"
                     " && !document.getElementById('drives').hidden")
        assert pad.eval("document.getElementById('drives').textContent") == f"This phone drives “{host}” through touchpad."
        assert pad.eval("document.querySelector('#backends tr.current').dataset.backend") == "touchpad"
        links = pad.eval("Array.from(document.querySelectorAll('a[href], link[href], script[src]'))"
                         ".map(function(e){return e.getAttribute('href') || e.getAttribute('src');})")
        assert links and not [link for link in links if "//" in link], links
        headings = pad.eval("Array.from(document.querySelectorAll('h2')).map(function(h){return h.textContent;})")
        assert {"Gestures", "Keyboard", "Settings"} <= set(headings) and any("each" in h for h in headings)
        for t in texts(pad):
            assert contrast(t["fg"], t["bg"]) >= 4.5, t
        pad.screenshot(str(ARTIFACTS / "help.png"))
        no_console_errors(pad)
    finally:
        pad.close()


def test_without_pairing_a_session_is_called_phone_n(browser):
    """A server without pairing (`--no-auth`) names no device: the observer says "phone N"."""
    server = Server(token="unused-Secret0123456789abcdefZ", extra=["--no-auth"], log_name="browser-observer-noauth.log")
    server.start()
    # Its links carry no secret: a page holding one would hang up on a server that asks no
    # proof (docs/protocol.md "Proof handshake").
    server.token = ""
    try:
        with phone_and_observer(browser, server) as (pad, watch):
            session = pad.state()["session"]
            wait_listed(watch, f"phone {session}")
            assert pad.state()["device"] is None
    finally:
        server.stop()
