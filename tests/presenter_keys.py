"""The presenter view's keys at a real desktop's window (docs/control.md "Media players and
presenter mode"), one check for every desktop's tests (tests/gnome, tests/kde, tests/sway):
Page Down (next slide), Page Up (previous) and b (blank screen) reach the focused window as the
keys a presentation program takes."""
from __future__ import annotations

# The keysyms a window sees: Page_Down, Page_Up, b.
PRESENTED = [("key-down", 0xFF56), ("key-up", 0xFF56), ("key-down", 0xFF55), ("key-up", 0xFF55), ("key-down", 0x62),
             ("key-up", 0x62)]


def check_presenter_keys(desktop, pad, keys) -> None:
    """Sends the presenter's three keys from `pad` and checks `desktop`'s window saw exactly
    them, in order (`keys`: the desktop's own reading of its window's key events)."""
    desktop.events()
    for key in ("PageDown", "PageUp", "b"):
        assert pad.request({"type": "key", "key": key}) is None, key
    events = desktop.wait_events(lambda e: ("key-up", 0x62) in keys(e))
    assert keys(events) == PRESENTED, events
