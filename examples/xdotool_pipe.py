#!/usr/bin/env python3
"""A do-it-yourself `pipe` hook: gestures → xdotool, as an example of writing your own hook.

This is NOT how GesturePad drives the computer: `gesturepad serve` does that itself (`--control`,
docs/control.md), in process, with acceleration, tap-and-drag, drag lock and a release rule,
on X11, uinput or Wayland. Use this file to learn the pipe hook protocol, or to map gestures
to tools of your own.

GesturePad starts this once and writes one JSON gesture event per line on its stdin
(see docs/outputs.md). Configure it with:

    hooks:
      - gesture: [drag, scroll, tap, longPress, longPressDrag]
        pipe: [python3, examples/xdotool_pipe.py, --speed, "1.5"]

Mapping:
  drag (1 finger)       move the pointer by the drag's ddx/ddy × speed
  scroll (2 fingers)    wheel clicks: one per --scroll-step px (natural direction)
  tap (1 finger)        left click (a double tap arrives as two taps: a double click)
  tap (2 fingers)       right click
  longPress began       press the left button (drag and drop) ...
  longPressDrag         ... move while holding ...
  longPress ended       ... release it (also on cancel)

Lines that are already waiting are read together and sent as one xdotool call, so the
pointer keeps up even when the phone sends faster than xdotool runs. `--dry-run` prints the
xdotool argv instead of running it (for testing without a display).
"""
import argparse
import json
import os
import subprocess
import sys


class Mapper:
    """Accumulates gesture events into xdotool commands (lists of argv words)."""

    def __init__(self, speed: float, scroll_step: float):
        self.speed = speed
        self.scroll_step = scroll_step
        self.move_x = 0.0  # pointer motion not yet sent (fractions carry over)
        self.move_y = 0.0
        self.scroll_x = 0.0
        self.scroll_y = 0.0
        self.commands = []
        self.button_down = False

    def feed(self, event: dict) -> None:
        gesture, phase = event.get("gesture"), event.get("phase")
        pointers = event.get("pointers", 1)
        if gesture in ("drag", "longPressDrag") and phase != "cancelled":
            if gesture == "drag" and pointers != 1:
                return
            self.move_x += float(event.get("ddx", 0)) * self.speed
            self.move_y += float(event.get("ddy", 0)) * self.speed
        elif gesture == "scroll" and phase in ("began", "changed", "ended"):
            self.scroll_x += float(event.get("ddx", 0))
            self.scroll_y += float(event.get("ddy", 0))
            self._wheel()
        elif gesture == "tap" and phase == "ended":
            self._flush_motion()
            if pointers == 1:
                self.commands.append(["click", "1"])
            elif pointers == 2:
                self.commands.append(["click", "3"])
        elif gesture == "longPress":
            self._flush_motion()
            if phase == "began" and not self.button_down:
                self.commands.append(["mousedown", "1"])
                self.button_down = True
            elif phase in ("ended", "cancelled") and self.button_down:
                self.commands.append(["mouseup", "1"])
                self.button_down = False

    def _wheel(self) -> None:
        # Natural scrolling: fingers up (negative ddy) scroll the content up → button 5.
        while self.scroll_y <= -self.scroll_step:
            self.commands.append(["click", "5"])
            self.scroll_y += self.scroll_step
        while self.scroll_y >= self.scroll_step:
            self.commands.append(["click", "4"])
            self.scroll_y -= self.scroll_step
        while self.scroll_x <= -self.scroll_step:
            self.commands.append(["click", "7"])
            self.scroll_x += self.scroll_step
        while self.scroll_x >= self.scroll_step:
            self.commands.append(["click", "6"])
            self.scroll_x -= self.scroll_step

    def _flush_motion(self) -> None:
        dx, dy = int(self.move_x), int(self.move_y)
        if dx or dy:
            self.commands.append(["mousemove_relative", "--", str(dx), str(dy)])
            self.move_x -= dx
            self.move_y -= dy

    def take(self) -> list:
        """The xdotool argv for everything fed since the last call ([] when nothing to do)."""
        self._flush_motion()
        commands, self.commands = self.commands, []
        argv = []
        for command in commands:
            argv.extend(command)  # xdotool chains several commands in one invocation
        return ["xdotool"] + argv if argv else []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, default=1.0, help="pointer px per phone px")
    parser.add_argument("--scroll-step", type=float, default=40.0, help="phone px per wheel click")
    parser.add_argument("--dry-run", action="store_true", help="print xdotool argv, run nothing")
    args = parser.parse_args()
    mapper = Mapper(args.speed, args.scroll_step)
    fd = sys.stdin.fileno()
    pending = b""
    while True:
        # One read returns everything already waiting: a burst of events becomes one call.
        chunk = os.read(fd, 65536)
        if not chunk:
            break  # GesturePad closed the pipe: shutting down
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if not line.strip():
                continue
            try:
                mapper.feed(json.loads(line))
            except (ValueError, TypeError, AttributeError):
                print(f"xdotool_pipe: ignoring a bad line: {line[:200]!r}", file=sys.stderr)
        argv = mapper.take()
        if not argv:
            continue
        if args.dry_run:
            print(json.dumps(argv), flush=True)
        else:
            try:
                subprocess.run(argv, check=False, stdin=subprocess.DEVNULL)
            except FileNotFoundError:
                print("xdotool_pipe: xdotool is not installed", file=sys.stderr)
    if mapper.button_down and not args.dry_run:
        subprocess.run(["xdotool", "mouseup", "1"], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
