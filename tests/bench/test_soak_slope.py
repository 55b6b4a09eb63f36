"""`make soak`'s memory verdict (bench/soak.py): the RSS slope over the last two thirds of the
samples taken under load, judged against the bound only for runs long enough to tell."""
import importlib.util
from pathlib import Path

import pytest

SOAK = Path(__file__).resolve().parents[2] / "bench" / "soak.py"
spec = importlib.util.spec_from_file_location("soak", SOAK)
soak = importlib.util.module_from_spec(spec)
spec.loader.exec_module(soak)


def samples(minutes: float, rss) -> list[dict]:
    """One sample a second while the load runs; `rss(t)` in KiB."""
    return [{"t": float(t), "rssKiB": rss(t), "rssAnonKiB": rss(t) - 30_000, "loadRunning": True}
            for t in range(int(minutes * 60) + 1)]


def test_a_climb_after_warm_up_is_measured_in_kib_per_minute():
    # 2 MiB of warm-up in the first minute, then +120 KiB/min.
    run = samples(30, lambda t: 40_000 + min(t, 60) * 2048 / 60 + t * 2)
    assert soak.rss_slope(run) == pytest.approx(120, rel=1e-6)
    assert soak.rss_slope(run, key="rssAnonKiB") == pytest.approx(120, rel=1e-6)
    assert soak.judge_slope(soak.rss_slope(run), 30, bound=10, judge_minutes=15) == "exceeded"


def test_warm_up_in_the_first_third_is_not_a_climb():
    # Growth that stops at minute 9 of 30 (before the last two thirds): flat.
    run = samples(30, lambda t: 30_000 + min(t, 540) * 20)
    assert soak.rss_slope(run) == pytest.approx(0, abs=1e-9)
    assert soak.judge_slope(soak.rss_slope(run), 30, bound=10, judge_minutes=15) == "ok"


def test_short_runs_and_missing_samples_are_not_judged():
    run = samples(5, lambda t: 30_000 + t * 10)
    assert soak.judge_slope(soak.rss_slope(run), 5, bound=10, judge_minutes=15) == "not judged"
    assert soak.rss_slope([]) is None
    assert soak.judge_slope(None, 30, bound=10, judge_minutes=15) == "not judged"
