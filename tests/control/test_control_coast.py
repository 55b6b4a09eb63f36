"""Kinetic scrolling on X11 (docs/control.md "Kinetic scrolling"): a two-finger flick keeps
wheeling after the lift, slower and slower, and comes to rest; a touch stops it at once.

The lift's moment is compared with the wheel clicks' X timestamps: Xvfb stamps events with
the monotonic clock in ms (`GetTimeInMillis`), the clock the touches' `t` come from here; the
offset between the two is measured on this run's own events, not assumed."""
import math
import time

from touch_input import even_steps
from x11_harness import buttons, describe

FLAT = ["--acceleration", "flat", "--speed", "1"]
HOME = (500, 500)
DETENT_PX = 24
DECAY_PER_MS = -math.log(0.996)  # GTK's friction, 4 per second
STOP_PX_S = 50


def presses(events, button=None):
    return [e for e in events if e.kind == "press" and (button is None or e.detail == button)]


def flick(pad):
    """Two fingers flick up 200 px in 20 steps of 8 ms (~1,250 px/s) and lift while moving.
    Returns the lift's `t` and the scroll's speed at the lift (px/s), as the server judged it."""
    start = {1: (300, 700), 2: (360, 700)}
    pad.down(start)
    since = pad.mark()
    end = pad.glide(start, even_steps(0, -200, 20, fingers=(1, 2)))
    pad.up(end)
    lift = pad.last_t
    pad.sync()
    ended = pad.wait_message(lambda m: m.get("gesture") == "scroll" and m.get("phase") == "ended", since)
    assert ended is not None, f"no scroll ended; the server sent {[m.get('gesture') for m in pad.messages(since)]}"
    return lift, math.hypot(ended["vx"], ended["vy"])


def x_clock_offset(x, since) -> float:
    """monotonic ms − X time, from the events read since `since` (each read after it was
    stamped: the smallest difference is the offset plus the quickest delivery)."""
    events = x.events(since)
    assert events, "no X event to compare the clocks with"
    return min(e.received * 1000 - e.time for e in events)


def test_flick_coasts_after_the_lift_and_comes_to_rest(x, start_server, pads):
    """A flick's wheel clicks go on after the lift, further and further apart, as many as GTK's curve travels from the lift's speed, and stop by the time it comes to rest."""
    pad = pads(start_server(FLAT))
    lift, speed = flick(pad)
    assert speed > 600, f"the flick lifted at {speed:.0f} px/s: too slow to test a coast (a stalled machine?)"
    duration = math.log(speed / STOP_PX_S) / DECAY_PER_MS
    coast_detents = (speed - STOP_PX_S) / 1000 / DECAY_PER_MS / DETENT_PX
    x.wait_for(lambda ev: len(presses(ev)) >= 8 + int(coast_detents) - 1, x.start, timeout=5)
    events = x.wait_quiet(x.start, quiet=0.6, timeout=5)
    what = describe(events)
    assert {b for _, b in buttons(events)} == {5}, f"a flick up scrolls down (button 5) only: {what}"
    assert x.pointer()[:2] == HOME, f"scrolling moved the pointer to {x.pointer()[:2]}"
    lift_x = lift - x_clock_offset(x, x.start)
    clicks = presses(events)
    after = [e.time - lift_x for e in clicks if e.time > lift_x + 2]
    during = len(clicks) - len(after)
    assert 7 <= during <= 9, f"{during} clicks before the lift; 200 px make 8: {what}"
    # All the clicks: the contact's 200 px and the coast's travel, within the fractions.
    expected = (200 / DETENT_PX) + coast_detents
    assert abs(len(clicks) - expected) <= 1.5, (
        f"{len(clicks)} clicks in all; the contact and a coast from {speed:.0f} px/s make {expected:.1f}: {what}")
    assert len(after) >= 8, f"only {len(after)} clicks after the lift (at {[round(a) for a in after]} ms)"
    gaps = [b - a for a, b in zip(after, after[1:])]
    third = max(len(gaps) // 3, 1)
    early, late = sum(gaps[:third]) / third, sum(gaps[-third:]) / third
    assert late > 3 * early, f"the clicks do not slow down: gaps {gaps} ms"
    # The coast runs on the server's timers, seen through a loaded 2-core machine's scheduler: a
    # coast that failed to rest would click on for seconds, so 250 ms of slack keeps the test
    # about the curve, not the scheduler (timing itself: make bench).
    assert after[-1] <= duration + 250, (
        f"a click {after[-1]:.0f} ms after the lift; the coast from {speed:.0f} px/s rests at {duration:.0f} ms")
    assert after[-1] >= duration * 0.5, f"the last click came {after[-1]:.0f} ms after the lift; the coast lasts {duration:.0f}"


def test_a_touch_stops_the_coast_at_once(x, start_server, pads):
    """A finger put down while the flick coasts stops it: no wheel click after the server saw that finger (its pointer motion), however long it stays down."""
    pad = pads(start_server(FLAT))
    lift, speed = flick(pad)
    lift_x = None
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:  # the coast is running: a click after the lift
        events = x.events(x.start)
        if events:
            lift_x = lift - x_clock_offset(x, x.start)
            if any(e.time > lift_x + 2 for e in presses(events)):
                break
        time.sleep(0.005)
    assert lift_x is not None and any(e.time > lift_x + 2 for e in presses(x.events(x.start))), (
        f"no coast to stop: {describe(x.events(x.start))}")
    pad.down({3: (600, 600)})
    end = pad.glide({3: (600, 600)}, even_steps(30, 0, 6, fingers=(3,)))  # past the slop: no tap, no long press
    time.sleep(0.9)  # the finger rests: longer than the rest of the coast would have lasted
    pad.up(end)
    pad.sync()
    events = x.wait_quiet(x.start, quiet=0.3)
    what = describe(events, motion=True)
    first_motion = next((i for i, e in enumerate(events) if e.kind == "motion"), None)
    assert first_motion is not None, f"the stopping finger never moved the pointer: {what}"
    late = [e for e in events[first_motion:] if e.kind in ("press", "release")]
    assert late == [], f"wheel clicks after the touch reached the server: {what}"
    coast = [e for e in presses(events) if e.time > lift_x + 2]
    full = (speed - STOP_PX_S) / 1000 / DECAY_PER_MS / DETENT_PX
    assert len(coast) < full - 3, f"{len(coast)} of a coast's {full:.1f} clicks came: it was not stopped early"
    assert x.pointer()[:2] == (HOME[0] + 30, HOME[1]), f"the finger moved the pointer to {x.pointer()[:2]}"


def test_kinetic_scrolling_off_stops_at_the_lift(x, start_server, pads):
    """With control.kineticScrolling false, the same flick makes only its own 200 px of clicks: 8."""
    pad = pads(start_server(FLAT, config="control:\n  kineticScrolling: false\n"))
    flick(pad)
    x.wait_for(lambda ev: len(presses(ev)) >= 8, x.start, timeout=3)
    events = x.wait_quiet(x.start, quiet=0.5)
    assert buttons(events) == [("press", 5), ("release", 5)] * 8, f"expected 8 clicks of button 5: {describe(events)}"
