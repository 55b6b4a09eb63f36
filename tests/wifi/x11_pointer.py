"""The X server's pointer, as the stroke's sampler reads it (XQueryPointer on a connection of
its own), and the server flags that make its motion 1:1."""
from __future__ import annotations

import time

from Xlib import display

# `gesturepad serve` driving X: one CSS px of finger travel is one pointer px (docs/control.md
# "Motion": flat acceleration, speed 1).
X11_FLAT = ["--control", "x11", "--acceleration", "flat", "--speed", "1"]


class XPointer:
    """reader() → (x, y) of the pointer on `display_name`; `warp` puts it somewhere first."""

    def __init__(self, display_name: str):
        self._display = display.Display(display_name)
        self._root = self._display.screen().root

    def __call__(self) -> tuple[int, int]:
        reply = self._root.query_pointer()
        return reply.root_x, reply.root_y

    def warp(self, x: int, y: int, timeout: float = 2.0) -> None:
        self._root.warp_pointer(x, y)
        self._display.sync()
        deadline = time.monotonic() + timeout
        while self() != (x, y):
            if time.monotonic() > deadline:
                raise RuntimeError(f"warp_pointer({x}, {y}) left the pointer at {self()}")
            time.sleep(0.005)

    def close(self) -> None:
        self._display.close()
