"""Issue 42: a hook that claims its gesture (`claim: true`) is the gesture's only effect. The
real server under Xvfb with `--control x11` and a claiming hook on the two-finger double tap:
the X server sees no button 3 at all, the hook's process runs; a single two-finger tap still
right-clicks, late (at the end of its tap sequence, multiTapInterval after the lift)."""
import stat
import time
from pathlib import Path

from testkit import eventually
from x11_harness import buttons, describe

FLAT = ["--acceleration", "flat", "--speed", "1"]
TWO = {1: (300, 400), 2: (360, 400)}


def claiming_config(tmp_path: Path, claim: bool = True) -> tuple[str, Path]:
    """A configuration whose only hook runs a script on two-finger double taps; the script
    appends a line to the returned file."""
    ran = tmp_path / "hook-ran.txt"
    hook = tmp_path / "double-tap.sh"
    hook.write_text(f'#!/bin/sh\necho "$GESTUREPAD_GESTURE $GESTUREPAD_POINTERS" >> "{ran}"\n')
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    config = (
        "hooks:\n"
        "  - name: two-finger double tap\n"
        "    gesture: doubleTap\n"
        "    pointers: 2\n"
        f"    claim: {'true' if claim else 'false'}\n"
        f"    run: [{hook}]\n"
    )
    return config, ran


def test_claimed_two_finger_double_tap_clicks_nothing_and_runs_the_hook(x, start_server, pads, tmp_path):
    """A two-finger double tap whose hook claims it: the hook runs once, and the X server sees no button 3 press (nor any button)."""
    config, ran = claiming_config(tmp_path)
    pad = pads(start_server(FLAT, config=config))
    pad.tap(TWO)
    time.sleep(0.1)
    pad.tap(TWO)
    pad.sync()
    assert eventually(lambda: ran.exists() and ran.read_text().strip() != ""), "the claiming hook did not run"
    time.sleep(0.6)  # well past multiTapInterval (300 ms): a held click would have come by now
    events = x.wait_quiet(x.start, quiet=0.3)
    assert ("press", 3) not in buttons(events), f"a claimed double tap right-clicked; the window got: {describe(events)}"
    assert buttons(events) == [], f"a claimed double tap clicked; the window got: {describe(events)}"
    assert ran.read_text().split("\n")[0] == "doubleTap 2", ran.read_text()


def test_unclaimed_two_finger_double_tap_right_clicks_twice(x, start_server, pads, tmp_path):
    """The same hook without `claim` (the default): the hook runs and the double tap still right-clicks twice (CONTROL.md's mapping)."""
    config, ran = claiming_config(tmp_path, claim=False)
    pad = pads(start_server(FLAT, config=config))
    pad.tap(TWO)
    time.sleep(0.1)
    pad.tap(TWO)
    pad.sync()
    x.wait_for(lambda ev: buttons(ev).count(("release", 3)) >= 2, x.start, timeout=3)
    events = x.wait_quiet(x.start)
    assert buttons(events) == [("press", 3), ("release", 3)] * 2, describe(events)
    assert eventually(lambda: ran.exists() and ran.read_text().strip() != ""), "the hook did not run"


def test_single_tap_of_a_claimed_double_tap_right_clicks_late(x, start_server, pads, tmp_path):
    """A single two-finger tap under the claim: no click at once, one right click after multiTapInterval (the sequence ended), and the hook does not run."""
    config, ran = claiming_config(tmp_path)
    pad = pads(start_server(FLAT, config=config))
    pad.tap(TWO)
    lifted = time.monotonic()
    pad.sync()
    early = x.events(x.start)
    if time.monotonic() - lifted < 0.25:  # only meaningful while still well before the deadline
        assert buttons(early) == [], f"the click of a tap a claim may take came at once: {describe(early)}"
    x.wait_for(lambda ev: ("release", 3) in buttons(ev), x.start, timeout=3)
    waited = time.monotonic() - lifted
    events = x.wait_quiet(x.start)
    assert buttons(events) == [("press", 3), ("release", 3)], f"the single tap should right-click once: {describe(events)}"
    assert waited >= 0.25, f"the right click came {waited * 1000:.0f} ms after the lift; expected about multiTapInterval (300 ms)"
    assert not ran.exists(), "the double-tap hook ran for a single tap"
