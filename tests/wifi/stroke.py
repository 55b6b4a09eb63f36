"""One finger stroke from a real WebSocket client, and a judge of what the pointer did.

The driver (`run_stroke`) says hello as a touchpad and moves one finger `distance` CSS px to
the right in `duration` seconds at `rate` Hz: `down`, one `move` frame per touch sample, `up`.
Each message's `t` is the sample's time on the sender's monotonic clock in ms, as a phone's
digitizer stamps it (evenly spaced; the frame goes out at that time, or as soon after as the
sender manages). Meanwhile a `Sampler` reads the pointer at `frame_rate` Hz — the display's
frames — through any callable returning (x, y): XQueryPointer here, sway's window's pointer
elsewhere. A reader whose positions carry their own times (the kernel's event stamps) passes a
`display` instead (stamped_display.py): the frames are then taken from those times.

The judge (`judge`, pure) compares the send times with the samples, for a server that moves
the pointer 1:1 (speed 1, flat acceleration), so move i should bring the pointer
floor((i + 1) × step) px right of where it started:

- latency from the send: for each move, its send → the first time the pointer was at or past its
  position. Where the reader stamps each change of the pointer (a stamped display: the kernel's,
  the compositor's or the portal's stamp), that stamp, as the issue measured it at the touchpad
  backend's stamped output; a live reader has only its reads, so there it is the first read
  showing it, which adds up to one display frame. Both readers also give the latency at the
  display (`display_p50_ms`: to the first display frame showing the move, which adds the
  frame's wait — a third of it to half, depending on where the frames fall);
- frozen frames: samples between the first and the last move's arrival (the first samples
  showing them) where the pointer had not moved since the previous sample, of all samples then;
- the largest jump between two consecutive samples, in px and × the ideal step
  (distance / (duration × frame_rate): 3.3 px for 600 px in 3 s at 60 Hz);
- the final position, read once the `up` has been handled: start + (distance, 0), exactly.
"""
from __future__ import annotations

import bisect
import inspect
import json
import contextlib
import functools
import math
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Protocol

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from linkshaper import Chunk, LinkShaper

PointerReader = Callable[[], tuple[int, int]]


class Display(Protocol):
    """What watches the pointer during a stroke (`Sampler`, or a display made from stamped
    positions): started before the first move, asked for the latest position while the stroke
    settles, stopped after it; `stop()` returns the display frames (time, x, y)."""

    def start(self) -> Display: ...

    def latest(self) -> tuple[int, int] | None: ...

    def stop(self) -> list[tuple[float, int, int]]: ...

# websockets ≥ 15 honours proxy environment variables unless told `proxy=None`.
_CONNECT_TAKES_PROXY = "proxy" in inspect.signature(connect).parameters


@dataclass(frozen=True)
class StrokePlan:
    distance: float = 600.0       # CSS px, rightwards
    duration: float = 3.0         # s
    rate: float = 120.0           # touch samples (move frames) per second
    frame_rate: float = 60.0      # pointer samples per second: the display
    finger: tuple[float, float] = (100.0, 600.0)  # where the finger lands on the surface
    surface: tuple[int, int] = (1600, 1200)       # the page's size in `hello`, CSS px

    @property
    def moves(self) -> int:
        return round(self.duration * self.rate)

    @property
    def ideal_step(self) -> float:
        """The pointer's travel per display frame at an even pace."""
        return self.distance / (self.duration * self.frame_rate)

    def travel(self, move: int) -> float:
        """The finger's travel after move `move` (from 0)."""
        return self.distance * (move + 1) / self.moves


@dataclass
class Recording:
    """What one stroke sent and what the sampler saw (times: time.monotonic() seconds)."""
    plan: StrokePlan
    start: tuple[int, int]                # the pointer before the stroke
    sends: list[float] = field(default_factory=list)     # each move's send time
    lateness: list[float] = field(default_factory=list)  # each move's send − its sample time
    samples: list[tuple[float, int, int]] = field(default_factory=list)
    final: tuple[int, int] | None = None  # the pointer after the up was handled
    # Each change of the pointer at its own stamp (time, x, y), when the display is made from
    # stamps; None for a live reader, whose reads (`samples`) are all there is.
    stamped: list[tuple[float, int, int]] | None = None
    slowest_read: float = 0.0  # the longest a live display's pointer read took (its stamp's doubt)
    cpu_wait: float | None = None  # a watched thread's longest wait for a CPU in a frame (s)


@dataclass(frozen=True)
class Verdict:
    latency_p50_ms: float | None
    latency_p99_ms: float | None
    reached: int                  # moves whose position the pointer reached
    moves: int
    frozen: int                   # frozen display frames during the stroke
    frames: int                   # display frames during the stroke
    largest_jump_px: float
    ideal_step_px: float
    final: tuple[int, int] | None
    expected_final: tuple[int, int]
    sender_late_ms: float         # the latest a move went out after its sample time
    sampler_gap_ms: float         # the longest gap between two samples during the stroke
    sampler_read_ms: float = 0.0  # the longest a pointer read took: how far its stamp may be off
    # The longest one of the watched processes' threads (the server's, the X server's, the
    # test's own) was ready to run but had no CPU within one display frame (None: not watched).
    cpu_wait_ms: float | None = None
    # Latency to the first display frame showing each move (the same as latency_* for a live
    # reader, whose reads are the display frames).
    display_p50_ms: float | None = None
    display_p99_ms: float | None = None
    stamped: bool = False         # latency_* are to the pointer's own stamps
    latencies_ms: tuple[float, ...] = field(default=(), repr=False)  # each reached move's
    # The display frames around the largest jump: (ms since the stroke's first send, x, y).
    jump_context: tuple[tuple[float, int, int], ...] = field(default=(), repr=False)

    @property
    def frozen_share(self) -> float:
        return self.frozen / self.frames if self.frames else 0.0

    @property
    def jump_ratio(self) -> float:
        return self.largest_jump_px / self.ideal_step_px

    @property
    def exact(self) -> bool:
        return self.final == self.expected_final

    def disturbed(self, plan: StrokePlan) -> str | None:
        """Why the stroke was not played or watched as written, if it was not: a move sent after
        the next one was due, or a display frame missed by the sampler (a loaded machine)."""
        reasons = []
        if self.sender_late_ms > 1000 / plan.rate:
            reasons.append(f"a move went out {self.sender_late_ms:.1f} ms late")
        if self.sampler_gap_ms > 1.5 * 1000 / plan.frame_rate:
            reasons.append(f"two pointer reads {self.sampler_gap_ms:.1f} ms apart")
        if self.sampler_read_ms > 0.25 * 1000 / plan.frame_rate:
            reasons.append(f"a pointer read took {self.sampler_read_ms:.1f} ms (its frame's time is that unsure)")
        if self.cpu_wait_ms is not None and self.cpu_wait_ms > 0.25 * 1000 / plan.frame_rate:
            reasons.append(f"a thread of the server, the X server or the test waited {self.cpu_wait_ms:.1f} ms "
                           "for a CPU in one frame")
        return "; ".join(reasons) or None

    def describe(self) -> str:
        """One line with every number, for test output and failure messages."""
        def ms(value):
            return "n/a" if value is None else f"{value:.1f}"
        basis = (f" to the stamp (at the display {ms(self.display_p50_ms)} / {ms(self.display_p99_ms)} ms)"
                 if self.stamped else "")
        return (f"latency p50 {ms(self.latency_p50_ms)} / p99 {ms(self.latency_p99_ms)} ms{basis} "
                f"({self.reached}/{self.moves} moves reached); frozen {self.frozen}/{self.frames} frames "
                f"({self.frozen_share:.1%}); largest jump {self.largest_jump_px:.1f} px "
                f"({self.jump_ratio:.1f}x the ideal {self.ideal_step_px:.2f}); final {self.final}, "
                f"expected {self.expected_final} ({'exact' if self.exact else 'NOT exact'}); "
                f"sender at most {self.sender_late_ms:.1f} ms late, samples at most "
                f"{self.sampler_gap_ms:.1f} ms apart" + (f", the slowest read {self.sampler_read_ms:.1f} ms"
                                                          if self.sampler_read_ms else "")
                + (f"; waited for a CPU at most {self.cpu_wait_ms:.1f} ms a frame"
                   if self.cpu_wait_ms is not None else ""))


class CpuWait:
    """How long each thread of some processes has spent ready to run without a CPU (the kernel's
    schedstat `run_delay`), read cheaply enough for every display frame: each thread's file
    stays open. The threads are those alive when it is made; `close()` after."""

    def __init__(self, pids: list[int]):
        self._files: list[int] = []
        for pid in pids:
            for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
                try:
                    self._files.append(os.open(stat, os.O_RDONLY))
                except OSError:
                    continue

    def read(self) -> list[float]:
        """Each thread's wait so far, in seconds (a thread gone meanwhile reads 0)."""
        waits = []
        for fd in self._files:
            try:
                waits.append(int(os.pread(fd, 128, 0).split()[1]) / 1e9)
            except (OSError, IndexError, ValueError):
                waits.append(0.0)
        return waits

    @staticmethod
    def longest(before: list[float], after: list[float]) -> float:
        """The most one thread waited between two reads."""
        return max((b - a for a, b in zip(before, after, strict=True)), default=0.0)

    def close(self) -> None:
        for fd in self._files:
            os.close(fd)
        self._files = []


def percentile(values: list[float], p: float) -> float | None:
    """Nearest rank: the smallest value with at least p % of the values at or below it."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def arrivals_in(positions: list[tuple[float, int, int]], recording: Recording) -> list[float | None]:
    """Each move's arrival in `positions` (time-ordered): the first, not before its send, at or
    past its position; None for a move never reached."""
    plan, x0 = recording.plan, recording.start[0]
    times = [p[0] for p in positions]
    arrivals: list[float | None] = []
    for move, sent in enumerate(recording.sends):
        target = math.floor(plan.travel(move) + 1e-6)
        j = next((i for i in range(bisect.bisect_left(times, sent), len(positions))
                  if positions[i][1] - x0 >= target), None)
        arrivals.append(None if j is None else times[j])
    return arrivals


def latencies_of(arrivals: list[float | None], sends: list[float]) -> list[float]:
    return [(a - s) * 1000 for a, s in zip(arrivals, sends, strict=True) if a is not None]


def judge(recording: Recording) -> Verdict:
    plan, samples = recording.plan, recording.samples
    x0, y0 = recording.start
    times = [s[0] for s in samples]

    arrivals = arrivals_in(samples, recording)
    at_display = latencies_of(arrivals, recording.sends)
    stamped = recording.stamped is not None
    latencies = latencies_of(arrivals_in(recording.stamped, recording), recording.sends) if stamped else at_display

    # A read less than half a frame after the one before is the sampler catching up after a
    # late read, not a display frame: no move need have come in so short a time.
    frozen = frames = 0
    gap = 0.0
    first = next((a for a in arrivals if a is not None), None)
    if first is not None:
        last = arrivals[-1] if arrivals[-1] is not None else times[-1]
        for i in range(1, len(samples)):
            if first < times[i] <= last:
                gap = max(gap, times[i] - times[i - 1])
                if times[i] - times[i - 1] >= 0.5 / plan.frame_rate:
                    frames += 1
                    frozen += samples[i][1:] == samples[i - 1][1:]

    steps = [math.dist(samples[i][1:], samples[i - 1][1:]) for i in range(1, len(samples))]
    jump = max(steps, default=0.0)
    at = steps.index(jump) + 1 if steps else 0
    origin = recording.sends[0] if recording.sends else (times[0] if times else 0.0)
    context = tuple((round((t - origin) * 1000, 1), x, y) for t, x, y in samples[max(0, at - 4):at + 4])
    return Verdict(
        latency_p50_ms=percentile(latencies, 50), latency_p99_ms=percentile(latencies, 99),
        reached=len(latencies), moves=plan.moves, frozen=frozen, frames=frames,
        largest_jump_px=jump, ideal_step_px=plan.ideal_step, final=recording.final,
        expected_final=(x0 + round(plan.distance), y0),
        sender_late_ms=max(recording.lateness, default=0.0) * 1000, sampler_gap_ms=gap * 1000,
        sampler_read_ms=recording.slowest_read * 1000,
        cpu_wait_ms=None if recording.cpu_wait is None else recording.cpu_wait * 1000,
        latencies_ms=tuple(latencies), jump_context=context, display_p50_ms=percentile(at_display, 50),
        display_p99_ms=percentile(at_display, 99), stamped=stamped)


class Sampler:
    """Reads the pointer `rate` times a second on a thread of its own, on a fixed schedule
    (a late read is not made up for: the next one keeps to the schedule). Each sample is
    stamped when its read returned; `slowest_read` is the longest a read took (the X server
    busy, or this thread waiting for the interpreter after the answer came): a sample's stamp
    may be that much later than the position it holds."""

    def __init__(self, read_pointer: PointerReader, rate: float, watch: list[int] | None = None):
        self._read = read_pointer
        self._period = 1.0 / rate
        self._watch = watch
        self.samples: list[tuple[float, int, int]] = []
        self.slowest_read = 0.0
        # With `watch` (pids): the most one of their threads waited for a CPU between two reads
        # (the threads alive when the sampler starts: the link's, the client's, its own).
        self.cpu_wait: float | None = None
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pointer-sampler", daemon=True)

    def start(self) -> Sampler:
        self._thread.start()
        return self

    def _run(self) -> None:
        cpu_wait = CpuWait(self._watch) if self._watch else None
        waited = cpu_wait.read() if cpu_wait is not None else []
        due = time.monotonic()
        try:
            while not self._stop.is_set():
                asked = time.monotonic()
                x, y = self._read()
                read = time.monotonic()
                self.samples.append((read, x, y))
                self.slowest_read = max(self.slowest_read, read - asked)
                if cpu_wait is not None:
                    now_waited = cpu_wait.read()
                    self.cpu_wait = max(self.cpu_wait or 0.0, CpuWait.longest(waited, now_waited))
                    waited = now_waited
                due += self._period
                now = time.monotonic()
                if due < now:  # the read or the machine was late: the next frame on the grid
                    due += math.ceil((now - due) / self._period) * self._period
                self._stop.wait(due - now)
        except BaseException as error:  # noqa: BLE001 — raised by stop()
            self._error = error
        finally:
            if cpu_wait is not None:
                cpu_wait.close()

    def latest(self) -> tuple[int, int] | None:
        return self.samples[-1][1:] if self.samples else None

    def stop(self) -> list[tuple[float, int, int]]:
        self._stop.set()
        self._thread.join(timeout=5)
        if self._error is not None:
            raise RuntimeError(f"reading the pointer failed: {self._error!r}")
        return self.samples


class TouchClient:
    """A touchpad connection: `hello` answered by `welcome`, then a thread that reads (and
    keeps) everything the server sends, so its gesture events never stall the socket."""

    def __init__(self, url: str, surface: tuple[int, int], timeout: float = 10.0):
        options = {"proxy": None} if _CONNECT_TAKES_PROXY else {}
        # the connection itself (websockets ≥ 17.1 warns when connect() is not entered)
        self.ws = connect(url, compression=None, open_timeout=timeout, close_timeout=3,
                          ping_interval=None, **options).__enter__()
        self.ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": surface[0],
                                 "height": surface[1], "dpr": 3, "client": "wifi-stroke"}))
        self.welcome = json.loads(self.ws.recv(timeout=timeout))
        if self.welcome.get("type") != "welcome":
            self.ws.close()
            raise RuntimeError(f"hello was answered with {self.welcome}")
        self.messages: list[dict] = []
        self._reader = threading.Thread(target=self._read, name="stroke-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            while True:
                self.messages.append(json.loads(self.ws.recv()))
        except (ConnectionClosed, OSError, RuntimeError):
            pass

    def pointer(self, kind: str, x: float, y: float, t: float) -> None:
        self.ws.send(json.dumps({"type": kind, "id": 1, "x": round(x, 3), "y": round(y, 3), "t": round(t, 3),
                                 "pointerType": "touch"}))

    def sync(self, timeout: float = 5.0) -> None:
        """A ping after everything sent: its pong means the server has handled all of it."""
        probe = round(time.monotonic() * 1000, 3)
        self.ws.send(json.dumps({"type": "ping", "t": probe}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(m.get("type") == "pong" and m.get("t") == probe for m in list(self.messages)):
                return
            time.sleep(0.002)
        raise TimeoutError(f"no pong within {timeout} s")

    def close(self) -> None:
        self.ws.close()
        self._reader.join(timeout=3)


def run_stroke(url: str, read_pointer: PointerReader, plan: StrokePlan = StrokePlan(),
               settle: float = 2.0, display: Callable[[PointerReader, float], Display] = Sampler) -> Recording:
    """Connects to `url` (the server's /ws, or a link shaper's), strokes, and returns the
    recording, its frames from `display(read_pointer, plan.frame_rate)`. After the `up` and a
    ping's answer, waits up to `settle` s for the pointer to reach the stroke's end, then two
    quiet frames more."""
    client = TouchClient(url, plan.surface)
    try:
        recording = Recording(plan, read_pointer())
        goal = (recording.start[0] + round(plan.distance), recording.start[1])
        sampler = display(read_pointer, plan.frame_rate).start()
        try:
            time.sleep(3 / plan.frame_rate)  # a few still frames first
            x, y = plan.finger
            begin = time.monotonic()
            client.pointer("down", x, y, begin * 1000)
            for move in range(plan.moves):
                due = begin + (move + 1) / plan.rate
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
                sent = time.monotonic()
                client.pointer("move", x + plan.travel(move), y, due * 1000)
                recording.sends.append(sent)
                recording.lateness.append(sent - due)
            due = begin + (plan.moves + 1) / plan.rate
            time.sleep(max(0.0, due - time.monotonic()))
            client.pointer("up", x + plan.distance, y, due * 1000)
            client.sync()
            deadline = time.monotonic() + settle
            while sampler.latest() != goal and time.monotonic() < deadline:
                time.sleep(1 / plan.frame_rate)
            time.sleep(2 / plan.frame_rate)
        finally:
            recording.samples = sampler.stop()
            recording.slowest_read = getattr(sampler, "slowest_read", 0.0)
            recording.stamped = getattr(sampler, "stamped", None)
            recording.cpu_wait = getattr(sampler, "cpu_wait", None)
        recording.final = read_pointer()
        return recording
    finally:
        client.close()


# How long one thread may keep the interpreter while another waits, during a stroke. The sender,
# the link shaper's loop, the sampler and the reader share one interpreter: at Python's default
# (5 ms) a thread whose socket answered may wait that long to run, which stamps a sample late or
# holds a chunk past its release time — the judge's noise, not the server's.
STROKE_SWITCH_INTERVAL = 0.0005


@contextlib.contextmanager
def brisk_thread_switches() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(STROKE_SWITCH_INTERVAL)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@dataclass
class LinkStroke:
    """A stroke through a link shaper: its verdict, the link's shaped chunks (linkshaper.Chunk)
    and why each earlier attempt was played again."""
    verdict: Verdict
    chunks: list[Chunk]
    replays: list[str]


def stroke_through_link(server_port: int, token: str | None, profile: str, read_pointer: PointerReader,
                        seed: int | str = 0, plan: StrokePlan = StrokePlan(), attempts: int = 3,
                        reset: Callable[[], None] | None = None,
                        keep: Callable[[Verdict], bool] | None = None,
                        display: Callable[[PointerReader, float], Display] = Sampler,
                        watch: Callable[[], list[int]] | None = None) -> LinkStroke:
    """The stroke to a server on 127.0.0.1:`server_port` through a fresh `profile` link shaper.
    A stroke the machine disturbed (`Verdict.disturbed`) is played again with the same seed —
    unless `keep(verdict)` says it will do anyway (it met its targets) — up to `attempts`
    strokes in all; the last is returned whatever it is. `reset()` runs before each (put the
    pointer back); `display` watches the pointer (`run_stroke`); `watch()` names the processes
    whose threads' wait for a CPU a live `Sampler` measures frame by frame (the server's, the X
    server's, the test's own): a stroke in which one waited over a quarter of a frame in a frame is
    disturbed."""
    replays: list[str] = []
    query = f"?token={token}" if token is not None else ""
    for attempt in range(1, attempts + 1):
        if reset is not None:
            reset()
        shown = functools.partial(Sampler, watch=watch()) if watch is not None and display is Sampler else display
        with brisk_thread_switches(), LinkShaper(("127.0.0.1", server_port), profile, seed) as link:
            recording = run_stroke(f"ws://127.0.0.1:{link.port}/ws{query}", read_pointer, plan, display=shown)
        verdict = judge(recording)
        why = verdict.disturbed(plan)
        if why is None or attempt == attempts or (keep is not None and keep(verdict)):
            return LinkStroke(verdict, link.chunks, replays)
        replays.append(why)
    raise ValueError("attempts must be at least 1")
