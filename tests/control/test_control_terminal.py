"""The terminal log of a server that drives the computer: one line per command of the page, and
one when the silence rule lets go of what a quiet phone held, saying why."""
from __future__ import annotations

import re
import time

LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3}  1  (.*)$")


def lines(server, until: str, timeout: float = 5.0) -> list[str]:
    """The session's terminal lines, once one of them starts with `until` (or at the timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        found = [m.group(1) for m in map(LINE.match, server.stdout().splitlines()) if m]
        if any(line.startswith(until) for line in found) or time.monotonic() > deadline:
            return found


def test_commands_and_the_silence_release_are_told(x, start_server, pads):
    """`typed 11 characters`, `right click`, `left button down`; then, with nothing sent for
    releaseAfterSilence (400 ms here), the button goes up and one line says what and why."""
    server = start_server(extra=["--no-color"], config="control:\n  releaseAfterSilence: 400\n")
    pad = pads(server)
    assert pad.request({"type": "text", "text": "hello wörld"}) is None
    assert pad.request({"type": "button", "button": "right", "action": "click"}) is None
    assert pad.request({"type": "button", "button": "left", "action": "down"}) is None
    assert x.wait_pointer(lambda p: p[2] & 0x100)[2] & 0x100, "button 1 never went down"
    # The phone says nothing more: the server's own timer releases the button.
    state = x.wait_pointer(lambda p: not p[2] & 0x100, timeout=5.0)
    assert not state[2] & 0x100, "the silence rule did not release button 1"
    told = lines(server, until="released")
    assert told[1:4] == ["typed 11 characters", "right click", "left button down"], told
    released = [line for line in told if line.startswith("released")]
    assert len(released) == 1, told
    why = re.fullmatch(r"released the left button: no message from the phone for (\d+\.\d) s "
                       r"\(control\.releaseAfterSilence\)", released[0])
    assert why and float(why.group(1)) >= 0.4, released
