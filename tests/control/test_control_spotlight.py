"""Presenter mode's spotlight (issue 44; docs/control.md "Presenter mode", docs/protocol.md
"Spotlight"), judged at a real X server (the suite's private Xvfb): a `spotlight` message makes
`--control x11` draw an orange ring centred on the pointer — seen in the X server's own
framebuffer, the pointer's spot left clear — which follows the pointer the phone moves, lets
every click through to the window under it, and is gone when the phone hides it, when the
phone goes, and when the server stops."""
from __future__ import annotations

import time

from Xlib import X, display

from touch_input import even_steps
from x11_harness import buttons, describe

FLAT = ["--acceleration", "flat", "--speed", "1"]
NAME = "GesturePad spotlight"
DIAMETER = 72
ORANGE = (0xFF, 0x6A, 0x00)


class Screen:
    """The test's own connection to the X server, to find the spotlight and read pixels."""

    def __init__(self, name: str):
        self.d = display.Display(name)
        self.root = self.d.screen().root

    def spotlight(self):
        """The spotlight's window, if the server made one (mapped or not)."""
        for child in self.root.query_tree().children:
            try:
                if child.get_wm_name() == NAME:
                    return child
            except Exception:  # noqa: BLE001 — a window that went between the two requests
                continue
        return None

    def shown_at(self) -> tuple[int, int] | None:
        """The centre of the spotlight when it is mapped, else None."""
        window = self.spotlight()
        if window is None or window.get_attributes().map_state != X.IsViewable:
            return None
        g = window.get_geometry()
        assert (g.width, g.height) == (DIAMETER, DIAMETER), f"the spotlight is {g.width}×{g.height}"
        return g.x + DIAMETER // 2, g.y + DIAMETER // 2

    def wait_shown_at(self, predicate, timeout: float = 3.0):
        deadline = time.monotonic() + timeout
        while True:
            at = self.shown_at()
            if predicate(at) or time.monotonic() > deadline:
                return at
            time.sleep(0.01)

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        image = self.root.get_image(x, y, 1, 1, X.ZPixmap, 0xFFFFFFFF)
        b, g, r = image.data[0], image.data[1], image.data[2]  # 24-bit TrueColor, little-endian
        return r, g, b

    def close(self):
        self.d.close()


def test_the_spotlight_follows_the_pointer_lets_clicks_through_and_goes(xserver, x, start_server, pads):
    screen = Screen(xserver.name)
    server = start_server(FLAT)
    try:
        pad = pads(server)
        assert pad.request({"type": "spotlight", "do": "show"}) is None
        at = screen.wait_shown_at(lambda c: c == (500, 500))
        assert at == (500, 500), f"the spotlight is centred on {at}, the pointer is at (500, 500)"
        window = screen.spotlight()
        assert window.get_attributes().override_redirect, "a window manager could move or frame the spotlight"
        # Seen on the screen: orange on the ring, the watcher's black where the pointer is.
        ring = screen.pixel(500 - DIAMETER // 2 + 3, 500)
        assert ring == ORANGE, f"the ring's pixel is {ring}"
        assert screen.pixel(500, 500) == (0, 0, 0), "the spotlight covers the pointer's own spot"

        # The phone moves the pointer: the ring follows it.
        pad.down({1: (200, 200)})
        end = pad.glide({1: (200, 200)}, even_steps(120, -60, 30), per_frame=3)
        pad.sync()
        state = x.wait_pointer(lambda s: s[:2] == (620, 440))
        assert state[:2] == (620, 440), f"the pointer is at {state[:2]}"
        at = screen.wait_shown_at(lambda c: c == (620, 440))
        assert at == (620, 440), f"the spotlight stayed at {at} while the pointer moved to (620, 440)"
        pad.up(end)

        # A click at the pointer reaches the window under the ring (its input shape is empty).
        mark = x.mark()
        pad.send({"type": "button", "button": "left", "action": "click"})
        events = x.wait_for(lambda ev: ("release", 1) in buttons(ev), mark, timeout=3)
        assert buttons(events) == [("press", 1), ("release", 1)], f"the window got: {describe(events)}"

        # Hidden by the phone; shown again; gone with the phone.
        assert pad.request({"type": "spotlight", "do": "hide"}) is None
        assert screen.wait_shown_at(lambda c: c is None) is None, "the spotlight stayed after hide"
        assert pad.request({"type": "spotlight", "do": "show"}) is None
        assert screen.wait_shown_at(lambda c: c is not None) is not None
        pad.close()
        assert screen.wait_shown_at(lambda c: c is None) is None, "the spotlight stayed after the phone went"

        # Shown by another phone, then the server stops: its window goes with its connection.
        other = pads(server)
        assert other.request({"type": "spotlight", "do": "show"}) is None
        assert screen.wait_shown_at(lambda c: c is not None) is not None
        assert server.stop() == 0
        deadline = time.monotonic() + 3
        while screen.spotlight() is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert screen.spotlight() is None, "the spotlight outlived the server"
    finally:
        screen.close()
