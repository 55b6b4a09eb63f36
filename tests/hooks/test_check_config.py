"""`gesturepad check-config FILE`: exit status and FILE:LINE:COLUMN messages."""
import re
import subprocess

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def check(gesturepad, tmp_path, text):
    path = tmp_path / "config.yaml"
    path.write_text(text)
    result = subprocess.run([gesturepad, "check-config", str(path)], capture_output=True, text=True, timeout=30)
    lines = [l for l in result.stderr.splitlines() if ": error: " in l]
    return result, lines


def test_example_config_is_valid(gesturepad):
    """The shipped example validates and lists its hooks."""
    result = subprocess.run([gesturepad, "check-config", str(REPO / "examples" / "gesturepad.yaml")],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout
    assert "play-pause: doubleTap" in result.stdout


def test_errors_have_line_numbers(gesturepad, tmp_path):
    """Unknown keys, wrong types and unknown gesture names are reported at their lines; exit 1."""
    result, lines = check(gesturepad, tmp_path, "server:\n  port: high\ngestures:\n  slopp: 3\nhooks:\n  - gesture: trippleTap\n    run: [true]\n")
    assert result.returncode == 1
    where = [tuple(map(int, re.search(r":(\d+):(\d+): error: ", l).groups())) for l in lines]
    assert [w[0] for w in where] == [2, 4, 6]
    assert "server.port must be an integer" in lines[0]
    assert "unknown key 'slopp'" in lines[1] and "did you mean 'slop'" in lines[1]
    assert "unknown gesture 'trippleTap'" in lines[2]
    assert "3 errors" in result.stderr


def test_shell_string_is_refused(gesturepad, tmp_path):
    """A command written as one shell string is refused with an explanation."""
    result, lines = check(gesturepad, tmp_path, "hooks:\n  - gesture: tap\n    run: notify-send hi; rm -rf ~\n")
    assert result.returncode == 1
    assert len(lines) == 1 and ":3:" in lines[0] and "never go through a shell" in lines[0]


def test_missing_file(gesturepad, tmp_path):
    """A missing file is an error, not a crash."""
    result = subprocess.run([gesturepad, "check-config", str(tmp_path / "nope.yaml")], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "cannot read" in result.stderr


def test_placeholder_of_some_gestures_only(gesturepad, tmp_path):
    """A right placeholder on a too-wide rule is explained, never "did you mean" itself."""
    result, lines = check(gesturepad, tmp_path, 'hooks:\n  - gesture: [press, tap]\n    run: [echo, "{pointerType}"]\n')
    assert result.returncode == 1
    assert len(lines) == 1 and ":3:" in lines[0]
    assert "{pointerType} is not a field of tap" in lines[0] and "only of press" in lines[0]
    assert "did you mean" not in lines[0]


def test_claim(gesturepad, tmp_path):
    """`claim: true` is listed with its rule; on a gesture the computer does nothing for it is refused at its line; `--print-keys` lists the key."""
    result, lines = check(gesturepad, tmp_path, "hooks:\n  - gesture: doubleTap\n    pointers: 2\n    claim: true\n    run: [true]\n")
    assert result.returncode == 0, result.stderr
    assert "doubleTap pointers=2 claimed" in result.stdout
    result, lines = check(gesturepad, tmp_path, "hooks:\n  - gesture: [tap, rotate]\n    claim: true\n    run: [true]\n")
    assert result.returncode == 1
    assert len(lines) == 1 and ":3:" in lines[0] and "nothing for rotate" in lines[0]
    keys = subprocess.run([gesturepad, "check-config", "--print-keys"], capture_output=True, text=True, timeout=30)
    assert "| `claim` | bool | `false` |" in keys.stdout
