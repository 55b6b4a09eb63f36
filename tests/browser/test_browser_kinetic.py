"""Kinetic scrolling from the page (docs/control.md "Kinetic scrolling", docs/page.md
"Settings"): the settings sheet shows the server's value for x11 (on), its switch sends
`kineticScrolling`, and the same two-finger flick on the page then coasts on the X server or
stops at the lift."""
from __future__ import annotations

from browser_harness import Player, tap_element, wire_messages


def flick_clicks(page, x) -> int:
    """Two fingers flick up 240 px in 160 ms and lift while moving; the wheel clicks (button 5:
    natural scrolling) the X window got once the wheel is still."""
    mark = x.mark()
    p = Player(page)
    p.down(0, f1=(150.0, 520.0), f2=(250.0, 520.0))
    p.move(10, 160, step=16, f1=(150.0, 280.0), f2=(250.0, 280.0))
    p.up(175)
    p.finish()
    x.wait_for(lambda ev: any(e.kind == "press" for e in ev), mark, timeout=3)
    events = x.wait_quiet(mark, quiet=0.5, timeout=5)
    assert {e.detail for e in events if e.kind == "press"} <= {5}, [str(e) for e in events]
    return sum(1 for e in events if e.kind == "press" and e.detail == 5)


def test_kinetic_switch_in_the_sheet_turns_the_coast_on_and_off(ctl_pad, x):
    """On by default for x11: a flick makes more clicks than its 240 px (ten); the sheet's switch
    sends kineticScrolling false, and the same flick then makes its ten clicks only."""
    assert ctl_pad.state()["settings"]["kineticScrolling"] is True
    coasting = flick_clicks(ctl_pad, x)
    assert coasting >= 15, f"{coasting} clicks: a flick at ~1,500 px/s coasts about fifteen detents beyond its ten"
    tap_element(ctl_pad, "#settings-open")
    ctl_pad.wait_for("window.gesturepad.sheetOpen === true")
    assert ctl_pad.eval("document.querySelector('#sheet [name=kineticScrolling]').checked") is True
    tap_element(ctl_pad, "#sheet [name=kineticScrolling]")
    ctl_pad.wait_for("window.gesturepad.settings.kineticScrolling === false")
    assert {"type": "settings", "kineticScrolling": False} in wire_messages(ctl_pad, ("settings",))
    tap_element(ctl_pad, "#sheet [data-action=close]")
    ctl_pad.wait_for("window.gesturepad.sheetOpen === false")
    still = flick_clicks(ctl_pad, x)
    assert still == 10, f"{still} clicks: with kinetic scrolling off a 240 px flick makes ten"
