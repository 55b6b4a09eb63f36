"""Trace checks: replays every recorded page -> server trace through `gesturepad replay` and
compares the printed gesture messages with NAME.expect.json (PROTOCOL.md "Replay",
GESTURES.md).

Traces: Tests/Fixtures/traces/*.jsonl, plus ../shared/traces/*.jsonl beside the repository when
that folder exists. Binary: $GESTUREPAD_BIN, default .build/debug/gesturepad (build it first).

Rules for a trace with an expectation file {"expect": {gesture: [event, ...]}}:
- the replay exits with status 0 and reports no malformed line;
- every stdout line is a JSON gesture message with session "replay" and the common fields
  (session, gesture, phase, t, x, y, pointers); t never decreases;
- `changed` events are left out of the comparison; for each expected gesture name, the events of
  that name form a sequence of the same length as expected, in which every expected field
  (including `phase`) is equal - a [value, tolerance] pair matches a number within tolerance;
- a gesture name that the expectation does not list must not appear at all.

Run: python3 -m pytest tests/traces
"""
import json
import math
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
COMMON_FIELDS = ("session", "gesture", "phase", "t", "x", "y", "pointers")
TRACE_DIRS = [REPO / "Tests" / "Fixtures" / "traces", REPO.parent / "shared" / "traces"]


def replay_binary():
    return os.environ.get("GESTUREPAD_BIN", str(REPO / ".build" / "debug" / "gesturepad"))


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def value_matches(want, got):
    """An expected field value against the printed one."""
    if isinstance(want, list) and len(want) == 2 and all(is_number(v) for v in want):
        return is_number(got) and math.isfinite(got) and abs(got - want[0]) <= want[1]
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(want, bool) and isinstance(got, bool) and want == got
    if is_number(want):
        return is_number(got) and want == got
    return want == got


def parse_output(stdout):
    """The gesture messages of a replay's stdout, and the problems with its lines."""
    events, problems = [], []
    for number, line in enumerate(stdout.splitlines(), 1):
        if not line.strip():
            problems.append(f"stdout line {number} is blank")
            continue
        try:
            message = json.loads(line)
        except ValueError:
            problems.append(f"stdout line {number} is not JSON: {line[:120]}")
            continue
        if not isinstance(message, dict) or message.get("type") != "gesture":
            problems.append(f"stdout line {number} is not a gesture message: {line[:120]}")
            continue
        missing = [field for field in COMMON_FIELDS if field not in message]
        if missing:
            problems.append(f"stdout line {number} lacks {', '.join(missing)}: {line[:120]}")
            continue
        if message["session"] != "replay":
            problems.append(f"stdout line {number} has session {message['session']!r}, not 'replay'")
        if not is_number(message["t"]) or not is_number(message["x"]) or not is_number(message["y"]):
            problems.append(f"stdout line {number} has a non-number t, x or y: {line[:120]}")
            continue
        if not isinstance(message["pointers"], int) or isinstance(message["pointers"], bool):
            problems.append(f"stdout line {number} has a non-integer pointers: {line[:120]}")
        events.append(message)
    return events, problems


def order_problems(events):
    """t must never decrease from one event to the next."""
    problems = []
    for index in range(1, len(events)):
        before, after = events[index - 1]["t"], events[index]["t"]
        if after < before - 1e-9:
            problems.append(f"event {index + 1} ({events[index]['gesture']}) has t {after} < {before} of the one before")
    return problems


def expectation_problems(events, expect):
    """The differences between the events (without `changed`) and the expectation."""
    by_name = {}
    for event in events:
        if event.get("phase") == "changed":
            continue
        by_name.setdefault(event["gesture"], []).append(event)
    problems = []
    for name, wanted in expect.items():
        got = by_name.pop(name, [])
        if len(got) != len(wanted):
            problems.append(
                f"{name}: expected {len(wanted)} event(s) {[w.get('phase', '*') for w in wanted]}, "
                f"got {len(got)} {[g.get('phase') for g in got]}"
            )
            continue
        for index, (want, event) in enumerate(zip(wanted, got), 1):
            for field, value in want.items():
                if field not in event:
                    problems.append(f"{name} #{index}: field {field!r} missing, expected {value!r}")
                elif not value_matches(value, event[field]):
                    problems.append(f"{name} #{index}: {field} is {event[field]!r}, expected {value!r}")
    for name, extra in sorted(by_name.items()):
        problems.append(f"{name}: not expected, got {len(extra)} event(s) {[e.get('phase') for e in extra]}")
    return problems


def check_replay(returncode, stdout, stderr, expect):
    problems = []
    if returncode != 0:
        problems.append(f"exit status {returncode}")
    if stderr.strip():
        problems.append(f"replay reported errors: {stderr.strip()[-400:]}")
    events, line_problems = parse_output(stdout)
    problems += line_problems + order_problems(events)
    if expect is not None:
        problems += expectation_problems(events, expect)
    return problems


def traces():
    found = []
    for folder in TRACE_DIRS:
        if folder.is_dir():
            for path in sorted(folder.glob("*.jsonl")):
                found.append(pytest.param(path, id=f"{folder.parent.name}/{path.stem}"))
    return found


@pytest.mark.parametrize("trace", traces())
def test_trace(trace):
    binary = replay_binary()
    assert os.path.exists(binary), f"no replay binary at {binary} (run swift build, or set GESTUREPAD_BIN)"
    expect_path = trace.with_name(trace.stem + ".expect.json")
    expect = json.loads(expect_path.read_text())["expect"] if expect_path.exists() else None
    proc = subprocess.run([binary, "replay", str(trace)], capture_output=True, text=True, timeout=60)
    problems = check_replay(proc.returncode, proc.stdout, proc.stderr, expect)
    assert not problems, f"{trace.name}:\n  " + "\n  ".join(problems)


# The checker's own tests, on handmade output.


def gesture_line(gesture, phase, t, **fields):
    message = {"type": "gesture", "session": "replay", "gesture": gesture, "phase": phase, "t": t, "x": 1, "y": 2, "pointers": 1}
    message.update(fields)
    return json.dumps(message)


TAP_EXPECT = {
    "press": [{}],
    "tap": [{"count": 1, "x": [200, 0.5]}],
    "drag": [{"phase": "began"}, {"phase": "ended", "dx": [-60, 2]}],
}


def tap_stdout(**overrides):
    lines = [
        gesture_line("press", "ended", 1000, id=1, pointerType="touch"),
        gesture_line("drag", "began", 1010, dx=-11),
        gesture_line("drag", "changed", 1020, dx=-30),
        gesture_line("drag", "ended", 1030, dx=overrides.get("dx", -59.2)),
        gesture_line("tap", "ended", overrides.get("tap_t", 1040), count=overrides.get("count", 1), x=200.3),
    ]
    return "\n".join(lines) + "\n"


def test_checker_accepts_matching_output():
    assert check_replay(0, tap_stdout(), "", TAP_EXPECT) == []


def test_checker_tolerance_pairs():
    assert value_matches([3.0, 0.05], 3.04)
    assert not value_matches([3.0, 0.05], 3.06)
    assert value_matches([-60, 2], -58)
    assert not value_matches([1, 0.5], True)
    assert not value_matches([1, 0.5], "1")
    assert value_matches(1, 1.0)
    assert not value_matches(True, 1)
    assert not value_matches(1, True)
    assert value_matches("right", "right")


def test_checker_reports_field_mismatch():
    problems = check_replay(0, tap_stdout(count=2), "", TAP_EXPECT)
    assert problems == ["tap #1: count is 2, expected 1"]
    problems = check_replay(0, tap_stdout(dx=-50), "", TAP_EXPECT)
    assert problems == ["drag #2: dx is -50, expected [-60, 2]"]


def test_checker_counts_events_without_changed():
    expect = dict(TAP_EXPECT, drag=[{"phase": "began"}])
    problems = check_replay(0, tap_stdout(), "", expect)
    assert problems == ["drag: expected 1 event(s) ['began'], got 2 ['began', 'ended']"]


def test_checker_rejects_unexpected_and_missing_gestures():
    expect = dict(TAP_EXPECT, doubleTap=[{}])
    del expect["press"]
    problems = check_replay(0, tap_stdout(), "", expect)
    assert "doubleTap: expected 1 event(s) ['*'], got 0 []" in problems
    assert "press: not expected, got 1 event(s) ['ended']" in problems
    assert len(problems) == 2


def test_checker_wants_expected_fields_present():
    expect = dict(TAP_EXPECT, press=[{"id": 1, "inside": True}])
    assert check_replay(0, tap_stdout(), "", expect) == ["press #1: field 'inside' missing, expected True"]


def test_checker_checks_lines_and_order():
    assert check_replay(0, tap_stdout(tap_t=1025), "", TAP_EXPECT) == [
        "event 5 (tap) has t 1025 < 1030 of the one before"
    ]
    bad = '{"type":"pong","t":1}\nnot json\n{"type":"gesture","session":"replay","gesture":"press","phase":"ended","t":1}\n'
    problems = check_replay(0, bad, "", None)
    assert problems[0].startswith("stdout line 1 is not a gesture message")
    assert problems[1].startswith("stdout line 2 is not JSON")
    assert problems[2].startswith("stdout line 3 lacks x, y, pointers")
    wrong_session = gesture_line("press", "ended", 1).replace('"replay"', '"s1"')
    assert check_replay(0, wrong_session, "", None) == ["stdout line 1 has session 's1', not 'replay'"]


def test_checker_reports_exit_status_and_stderr():
    problems = check_replay(1, "", 'line 3: {"type":"error"}', {})
    assert problems == ["exit status 1", 'replay reported errors: line 3: {"type":"error"}']
