"""The Autobahn report judge (check.py): listed outcomes pass, anything else fails the run."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import check  # noqa: E402

EXPECTED = Path(__file__).resolve().parent / "expected.txt"


def outcome(behaviour: str, close: str) -> dict:
    return {"behavior": behaviour, "behaviorClose": close}


def test_listed_outcomes_pass_and_others_fail():
    rules = check.load_expectations(EXPECTED)
    listed, unexpected = check.judge({
        "1.1.1": outcome("OK", "OK"),
        "1.2.3": outcome("FAILED", "FAILED"),         # binary: refused by design
        "3.2": outcome("NON-STRICT", "OK"),
        "3.3": outcome("OK", "OK"),                   # either is fine (timing)
        "12.1.1": outcome("UNIMPLEMENTED", "OK"),
        "13.7.2": outcome("FAILED", "FAILED"),        # the 13.7 line wins over 13.*
        "7.1.6": outcome("INFORMATIONAL", "INFORMATIONAL"),
    }, rules)
    assert unexpected == []
    assert [line.split(":")[0] for line in listed] == ["1.2.3", "3.2", "12.1.1", "13.7.2"]

    _, unexpected = check.judge({
        "1.1.1": outcome("OK", "FAILED BY CLIENT"),   # not listed, not OK
        "1.2.1": outcome("OK", "OK"),                 # better than listed: the list must change
        "6.4.1": outcome("FAILED", "OK"),             # worse than listed
        "13.1.1": outcome("FAILED", "FAILED"),
    }, rules)
    assert [line.split(":")[0] for line in unexpected] == ["1.1.1", "1.2.1", "6.4.1", "13.1.1"]


def test_a_short_or_missing_report_fails(tmp_path, capsys):
    assert check.main(["check.py", str(tmp_path / "index.json"), str(EXPECTED)]) == 1
    index = tmp_path / "index.json"
    index.write_text(json.dumps({"gesturepad": {"1.1.1": outcome("OK", "OK")}}))
    assert check.main(["check.py", str(index), str(EXPECTED)]) == 1
    assert "only 1 cases" in capsys.readouterr().err
