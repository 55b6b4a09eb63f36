"""Hooks that flood their stdout/stderr: the real server with real processes (issue 12, finding 3).

Every byte a hook writes passes through one limiter per hook (docs/outputs.md "Hook output"):
at most 100 lines at once and 20 lines/s on average reach the server's stderr, each line cut
to 1,024 bytes, with one "suppressed N lines" note per flood; a hook that writes faster than
the reading pace (1 MiB/s per hook) is blocked on its own writes instead of costing a core.
"""
import json
import os
import resource
import stat
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
try:
    from testkit import Server, binary, hello, recv_json  # noqa: E402
except ImportError:  # the server's test kit is not in this tree
    pytest.skip("needs tests/testkit.py", allow_module_level=True)

if not binary().exists():
    pytest.skip(f"{binary()} not built (swift build)", allow_module_level=True)

# The documented bound of what floods may add to the server's stderr in these tests (two
# floods of a few seconds each: bursts, average rate, notes and the server's own lines).
STDERR_BOUND = 100_000
# Server CPU time (user + system) per second of flood. Reading at the paced 1 MiB/s costs a
# few percent of a core even in a debug build; before the limiter it was a whole core.
CPU_SHARE_BOUND = 0.25


@pytest.fixture
def page(tmp_path):
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>test</title>")
    return folder


@pytest.fixture(autouse=True)
def file_size_cap():
    """Caps files written by the server and its hooks at 256 MB (RLIMIT_FSIZE, inherited),
    so that a server without the limit fails these tests instead of filling the disk."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    cap = 256 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def cpu_seconds(pid: int) -> float:
    """utime + stime of `pid` from /proc/PID/stat, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stderr_bytes(server) -> int:
    return os.path.getsize(server.err.name)


def ping_worst(server, seconds: float) -> float:
    """Pings on a fresh connection for `seconds`; the slowest round trip. Fails if the
    server stops answering (a server busy with hook output would)."""
    worst = 0.0
    with server.connect() as ws:
        assert hello(ws)["type"] == "welcome"
        deadline = time.monotonic() + seconds
        i = 0
        while time.monotonic() < deadline:
            sent = time.monotonic()
            ws.send(json.dumps({"type": "ping", "t": float(i)}))
            while recv_json(ws)["type"] != "pong":
                pass
            worst = max(worst, time.monotonic() - sent)
            i += 1
            time.sleep(0.05)
    return worst


def tap(server) -> None:
    """One tap on a new touchpad connection."""
    with server.connect() as ws:
        assert hello(ws)["type"] == "welcome"
        for kind, t in (("down", 1000.0), ("up", 1070.0)):
            message = {"type": kind, "id": 1, "t": t, "x": 200, "y": 400, "pointerType": "touch"}
            ws.send(json.dumps(message))
        time.sleep(0.1)


def test_pipe_hook_running_yes_is_contained(tmp_path, page):
    """A `pipe` hook running `yes`: stderr stays under the bound and holds the note, the server
    spends little CPU, and another connection keeps answering pings."""
    config = tmp_path / "gesturepad.yaml"
    config.write_text("hooks:\n  - {name: yes-pipe, gesture: tap, pipe: [yes]}\n")
    with Server(public=page, extra=["--config", str(config), "--quiet"]) as server:
        time.sleep(0.5)  # `yes` has started and filled its first burst
        cpu_before, wall_before = cpu_seconds(server.process.pid), time.monotonic()
        worst = ping_worst(server, 4.0)
        cpu = cpu_seconds(server.process.pid) - cpu_before
        wall = time.monotonic() - wall_before
        print(f"\n{wall:.1f} s: server CPU {cpu:.2f} s, stderr {stderr_bytes(server)} bytes, slowest ping {worst * 1000:.0f} ms")
        assert server.process.poll() is None, "the server died: " + server.stderr()[-500:]
        assert stderr_bytes(server) < STDERR_BOUND, f"{stderr_bytes(server)} bytes of stderr in {wall:.1f} s"
        assert cpu < CPU_SHARE_BOUND * wall, f"server used {cpu:.2f} s CPU in {wall:.1f} s"
        assert worst < 1.0, f"slowest ping {worst:.3f} s"
        assert server.stop() == 0
        err = server.stderr()
    assert len(err.encode()) < STDERR_BOUND
    assert "pipe hook output" in err and "hook.output=y" in err  # the first lines got through
    assert "suppressed" in err  # …and the rest is counted: one note, not one line each
    assert err.count("suppressed") <= 3


def test_run_hook_flooding_until_timeout_is_contained(tmp_path, page):
    """A `run` hook that floods stdout and stderr (one of them without a newline) until its
    timeout kills it: same bounds, and the timeout still kills its whole process group."""
    pids = tmp_path / "pids"
    flood = script(tmp_path / "flood.sh",
                   f'echo $$ >> "{pids}"\n'
                   "yes out-flood &\n"
                   "yes err-flood >&2 &\n"
                   "tr '\\0' x < /dev/zero >&2 &\n"  # one endless line: cut, never buffered whole
                   "wait\n")
    config = tmp_path / "gesturepad.yaml"
    config.write_text(f"hooks:\n  - {{name: flood-run, gesture: tap, run: [{flood}], timeout: 2}}\n")
    with Server(public=page, extra=["--config", str(config), "--quiet"]) as server:
        cpu_before, wall_before = cpu_seconds(server.process.pid), time.monotonic()
        tap(server)
        worst = ping_worst(server, 3.0)
        cpu = cpu_seconds(server.process.pid) - cpu_before
        wall = time.monotonic() - wall_before
        print(f"\n{wall:.1f} s: server CPU {cpu:.2f} s, stderr {stderr_bytes(server)} bytes, slowest ping {worst * 1000:.0f} ms")
        assert server.process.poll() is None, "the server died: " + server.stderr()[-500:]
        assert stderr_bytes(server) < STDERR_BOUND, f"{stderr_bytes(server)} bytes of stderr in {wall:.1f} s"
        assert cpu < CPU_SHARE_BOUND * wall, f"server used {cpu:.2f} s CPU in {wall:.1f} s"
        assert worst < 1.0, f"slowest ping {worst:.3f} s"
        # The timeout (2 s) killed the script and its three floods: no process of its group is left.
        pgid = int(pids.read_text().split()[0])
        assert not alive_in_group(pgid)
        rss_kb = int(next(l for l in Path(f"/proc/{server.process.pid}/status").read_text().splitlines()
                          if l.startswith("VmRSS:")).split()[1])
        assert rss_kb < 200_000, f"server RSS {rss_kb} kB"
        assert server.stop() == 0
        err = server.stderr()
    assert len(err.encode()) < STDERR_BOUND
    assert "run hook timed out" in err
    # One budget for the hook's stdout and stderr together: the first burst got through,
    # whichever stream it came from; the rest is counted in a note.
    assert "hook.output=out-flood" in err or "hook.output=err-flood" in err or "hook.output=xxxx" in err
    assert "run hook output: suppressed" in err


def alive_in_group(pgid: int) -> list[int]:
    """The processes of group `pgid` that are not zombies (an orphaned grandchild's zombie
    is for PID 1 to reap, not the server)."""
    alive = []
    for proc in Path("/proc").iterdir():
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if proc.name.isdigit() and int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(proc.name))
    return alive
