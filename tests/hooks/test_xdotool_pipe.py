"""examples/xdotool_pipe.py in --dry-run: gesture JSON lines in, xdotool argv out."""
import json
import subprocess
import sys

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = REPO / "examples" / "xdotool_pipe.py"


def event(gesture, phase="ended", pointers=1, **fields):
    return json.dumps({"type": "gesture", "session": "s", "gesture": gesture, "phase": phase,
                       "t": 1, "x": 0, "y": 0, "pointers": pointers, **fields})


def run(lines, *args):
    result = subprocess.run([sys.executable, str(SCRIPT), "--dry-run", *args], input="\n".join(lines) + "\n",
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return [json.loads(l) for l in result.stdout.splitlines()], result.stderr


def flat(calls):
    return [word for call in calls for word in call[1:]]


def test_drag_moves_pointer_with_speed_and_carry():
    """Drag deltas become relative motion, scaled, fractions carried to the next call."""
    calls, _ = run([event("drag", "began", ddx=10.6, ddy=-3.2), event("drag", "changed", ddx=0.6, ddy=0)], "--speed", "2")
    words = flat(calls)
    assert words[:2] == ["mousemove_relative", "--"]
    assert sum(int(w) for w in words[2::4]) in (22, 23)  # 2 × 11.2 = 22.4


def test_taps_click_and_scroll_wheels():
    """One-finger tap = left click, two-finger tap = right click, scroll = wheel steps."""
    calls, _ = run([event("tap", count=1), event("tap", pointers=2, count=1),
                    event("scroll", "changed", pointers=2, ddx=0, ddy=-85)])
    words = flat(calls)
    assert words.count("click") == 4
    assert ["click", "1"] == words[0:2] and ["click", "3"] == words[2:4]
    assert words[4:] == ["click", "5", "click", "5"]


def test_long_press_drag_and_drop():
    """longPress began/ended hold the button around longPressDrag motion."""
    calls, _ = run([event("longPress", "began"), event("longPressDrag", "changed", ddx=5, ddy=5),
                    event("longPress", "ended")])
    words = flat(calls)
    assert words.index("mousedown") < words.index("mousemove_relative") < words.index("mouseup")


def test_bad_lines_are_ignored():
    """Garbage on stdin is reported and skipped; later events still work."""
    calls, err = run(["not json", "[1,2]", event("tap", count=1)])
    assert flat(calls) == ["click", "1"]
    assert "ignoring a bad line" in err
