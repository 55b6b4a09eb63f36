"""The unpair-while-reconnecting race (issue 33), with the real page and the real server: a
paired page whose connection dropped has its next socket in flight — a gate between them holds
the upgrade — when the person taps "Unpair this phone". Then the gate opens. The in-flight
socket must not bring the phone back: its welcome would store the device key again and go
live, though the server never heard the unpair. The page ends that socket at the unpair
(docs/page.md "The connection's life"), so it stays unpaired, its key forgotten, not live."""
from __future__ import annotations

from browser_harness import no_console_errors
from gate import open_paired, wait_until

UNPAIR_BUTTON = "document.querySelector('#sheet [data-action=\"unpair\"]')"


def test_an_unpair_while_reconnecting_is_not_undone_by_the_socket_in_flight(browser, gated):
    server, gate = gated
    page = open_paired(browser, gate, server.token)
    try:
        assert len(page.eval("localStorage.getItem('gesturepad.deviceKey')") or "") == 43
        welcomes = page.eval("window.gesturepad.received.filter(function (m) { return m.type === 'welcome'; }).length")
        # The connection drops; the next attempt's upgrade waits at the closed gate.
        gate.close_gate()
        gate.cut()
        page.wait_for("window.gesturepad.status === 'reconnecting'", 5)
        wait_until(lambda: gate.held >= 1, 8, "the page's next socket to reach the gate")
        # "Unpair this phone", two taps.
        page.eval(f"{UNPAIR_BUTTON}.click()")
        page.eval(f"{UNPAIR_BUTTON}.click()")
        page.wait_for("window.gesturepad.status === 'refused'", 5)
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") is None
        # The in-flight socket's upgrade goes through now: the page must have let it go.
        gate.open_gate()
        wait_until(lambda: gate.held_ended.is_set() or page.state()["status"] == "live", 8,
                   "the held socket to end, or the page to go live")
        state = page.state()
        assert state["status"] == "refused", state["status"]
        assert "not paired any more" in state["detail"]
        assert len([m for m in state["received"] if m["type"] == "welcome"]) == welcomes
        assert state["device"] is None
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") is None
        assert page.eval(f"{UNPAIR_BUTTON}.disabled") is True
        assert page.eval("document.getElementById('device-name').textContent") == "not paired"
        no_console_errors(page)
    finally:
        page.close()

