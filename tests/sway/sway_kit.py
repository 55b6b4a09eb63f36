"""What the sway tests share beyond fixtures (a module of its own: `from conftest import …` would
find whichever suite's conftest pytest loaded first when it runs every suite at once)."""
from __future__ import annotations

from recorder_events import wait_until
from sway_session import missing_programs

FLAT = ["--acceleration", "flat", "--speed", "1"]
ACTIVE = {"active": True, "backend": "wlroots"}
MISSING = missing_programs()


def focused_pad(desktop, pads, start, extra=None, env=None):
    """A touchpad on a server `start` starts, once control is active and the window has the
    keyboard's focus again (the server's virtual keyboard is the seat's only one: focus comes
    with it), the start's own events gone by."""
    before = desktop.focus_count()
    server = start(extra, env)
    touchpad = pads(server)
    assert touchpad.welcome.get("control") == ACTIVE, touchpad.welcome
    wait_until(lambda: desktop.focus_count() > before, 10, "the window's keyboard focus")
    settle(desktop)
    return server, touchpad


def settle(desktop) -> None:
    """Lets the window's events of a server's start go by (its release of every button, sent
    right after the keyboard that brings the focus: GTK reports some, as releases of buttons
    it never saw down), so that they are not taken for a test's own."""
    desktop.wait_events(lambda events: True, timeout=2, quiet=0.3)
