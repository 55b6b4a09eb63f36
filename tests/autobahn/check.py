"""Judges an Autobahn|Testsuite fuzzingclient report against tests/autobahn/expected.txt.

    python3 tests/autobahn/check.py REPORT_DIR/index.json tests/autobahn/expected.txt

Prints a summary (counts by outcome, the listed non-pass outcomes, anything unexpected) and
exits 1 when a case ends other than its line in expected.txt allows, when a case no line
matches is not OK, or when the report has fewer cases than the suite runs.
"""
from __future__ import annotations

import collections
import fnmatch
import json
import sys
from dataclasses import dataclass
from pathlib import Path

# Outcomes that need no line in expected.txt.
PASSING_BEHAVIOUR = {"OK", "INFORMATIONAL"}
PASSING_CLOSE = {"OK", "INFORMATIONAL"}
# fuzzingclient with every case: fewer means the run broke off.
MINIMUM_CASES = 500


@dataclass
class Expectation:
    pattern: str
    behaviours: set[str]
    closes: set[str]
    reason: str


def load_expectations(path: Path) -> list[Expectation]:
    expectations = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(None, 3)
        if len(parts) < 4:
            raise SystemExit(f"{path}:{number}: expected `case behaviour close why`, got: {line}")
        pattern, behaviours, closes, reason = parts
        expectations.append(Expectation(pattern, set(behaviours.split("|")), set(closes.split("|")), reason))
    return expectations


def case_key(case: str) -> list[int]:
    return [int(part) for part in case.split(".")]


def judge(results: dict[str, dict], expectations: list[Expectation]) -> tuple[list[str], list[str]]:
    """(lines for the listed non-pass outcomes, lines for the unexpected ones)."""
    listed, unexpected = [], []
    for case in sorted(results, key=case_key):
        behaviour, close = results[case]["behavior"], results[case]["behaviorClose"]
        rule = next((e for e in expectations if fnmatch.fnmatchcase(case, e.pattern)), None)
        if rule is None:
            if behaviour not in PASSING_BEHAVIOUR or close not in PASSING_CLOSE:
                unexpected.append(f"{case}: {behaviour} / {close} (not listed in expected.txt)")
        elif behaviour in rule.behaviours and close in rule.closes:
            if (behaviour, close) != ("OK", "OK"):
                listed.append(f"{case}: {behaviour} / {close} ({rule.pattern}: {rule.reason})")
        else:
            allowed = f"{'|'.join(sorted(rule.behaviours))} / {'|'.join(sorted(rule.closes))}"
            unexpected.append(f"{case}: {behaviour} / {close}, expected {allowed} ({rule.pattern}: {rule.reason})")
    return listed, unexpected


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    index, expected = Path(argv[1]), Path(argv[2])
    if not index.exists():
        print(f"autobahn: no report at {index} (the run did not finish)", file=sys.stderr)
        return 1
    agents = json.loads(index.read_text())
    if len(agents) != 1:
        print(f"autobahn: expected one agent in {index}, found {sorted(agents)}", file=sys.stderr)
        return 1
    results = next(iter(agents.values()))
    listed, unexpected = judge(results, load_expectations(expected))
    counts = collections.Counter(f"{r['behavior']} / {r['behaviorClose']}" for r in results.values())
    print(f"autobahn: {len(results)} cases: " + ", ".join(f"{n} {k}" for k, n in counts.most_common()))
    print(f"autobahn: {len(listed)} non-pass outcomes as listed in {expected}")
    if len(results) < MINIMUM_CASES:
        unexpected.append(f"only {len(results)} cases in the report (at least {MINIMUM_CASES} expected)")
    for line in unexpected:
        print(f"autobahn: UNEXPECTED {line}", file=sys.stderr)
    if unexpected:
        print(f"autobahn: {len(unexpected)} unexpected outcome(s); report: {index.parent / 'index.html'}",
              file=sys.stderr)
        return 1
    print("autobahn: no unexpected outcome")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
