"""The `gesturepad replay` command line (PROTOCOL.md "Replay"): stdin, stderr format, exit status.

Binary: $GESTUREPAD_BIN, default .build/debug/gesturepad. Run: python3 -m pytest tests/traces
"""
import json
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("GESTUREPAD_BIN", str(REPO / ".build" / "debug" / "gesturepad"))
HELLO = '{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844}'


def run(text, *args):
    return subprocess.run([BINARY, "replay", *args, "-"], input=text, capture_output=True, text=True, timeout=30)


def test_malformed_lines_go_to_stderr_and_replay_goes_on():
    lines = [
        '{"type":"ping","t":1}',
        HELLO,
        "not json",
        '[{"type":"ping","t":5},{"type":"nope"}]',
        '{"type":"down","id":1,"t":1000,"x":1e999,"y":5,"pointerType":"touch"}',
        '{"type":"down","id":1,"t":1000,"x":5,"y":5,"pointerType":"touch"}',
        '{"type":"up","id":1,"t":1040,"x":5,"y":5,"pointerType":"touch"}',
    ]
    proc = run("\n".join(lines) + "\n")
    assert proc.returncode == 0
    errors = proc.stderr.splitlines()
    assert [e.split(": ", 1)[0] for e in errors] == ["line 1", "line 3", "line 4", "line 5"]
    codes = [json.loads(e.split(": ", 1)[1])["code"] for e in errors]
    assert codes == ["hello_required", "bad_json", "unknown_type", "bad_field"]
    assert json.loads(errors[3].split(": ", 1)[1])["message"] == 'down: field "x" must be a finite number'
    for line in proc.stdout.splitlines():
        message = json.loads(line)
        assert message["type"] == "gesture" and message["session"] == "replay"


def test_observer_replay_prints_nothing():
    lines = [
        '{"type":"hello","protocol":1,"role":"observer"}',
        '{"type":"down","id":1,"t":1000,"x":5,"y":5,"pointerType":"touch"}',
        '{"type":"up","id":1,"t":1040,"x":5,"y":5,"pointerType":"touch"}',
    ]
    proc = run("\n".join(lines))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_last_line_without_newline_and_crlf():
    text = HELLO + "\r\n" + '{"type":"ping","t":1000}\r\n' + "{oops"
    proc = run(text)
    assert proc.returncode == 0
    assert proc.stderr.startswith('line 3: {"type":"error","code":"bad_json"')
    assert len(proc.stderr.splitlines()) == 1


def two_finger_taps(*starts):
    lines = [HELLO]
    for t in starts:
        for kind, at in (("down", t), ("up", t + 50)):
            lines.append(json.dumps([{"type": kind, "id": i, "t": at, "x": 50 + 50 * i, "y": 300, "pointerType": "touch"}
                                     for i in (1, 2)]))
    return "\n".join(lines) + "\n"


def test_replay_control_applies_the_hooks_claims(tmp_path):
    """`replay --actions --config` maps as the server would with the file's hooks: a claimed two-finger double tap clicks nothing; a single tap under the claim right-clicks late, at its sequence's end (t + 300)."""
    config = tmp_path / "claim.yaml"
    config.write_text("hooks:\n  - gesture: doubleTap\n    pointers: 2\n    claim: true\n    run: [true]\n")
    plain = run(two_finger_taps(1000, 1200), "--actions")
    # `--control x11` names the backend as `serve --control` does, and implies --actions;
    # `--backend`, its name before, still works for scripts that use it.
    assert run(two_finger_taps(1000, 1200), "--control", "x11").stdout == plain.stdout
    assert run(two_finger_taps(1000, 1200), "--actions", "--backend", "x11").stdout == plain.stdout
    assert [json.loads(l)["t"] for l in plain.stdout.splitlines()] == [1050, 1050, 1250, 1250], plain.stdout
    claimed = run(two_finger_taps(1000, 1200), "--actions", "--config", str(config))
    assert (claimed.returncode, claimed.stdout, claimed.stderr) == (0, "", "")
    single = run(two_finger_taps(1000), "--actions", "--config", str(config))
    actions = [json.loads(l) for l in single.stdout.splitlines()]
    assert [(a["t"], a["button"], a["state"]) for a in actions] == [(1350, "right", "down"), (1350, "right", "up")], actions
