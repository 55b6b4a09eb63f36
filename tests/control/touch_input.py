"""Touch input over a real WebSocket, stamped with `t` from real time.

The server fires its timers (the tap's delayed button release, drag lock) on the page's clock
mapped through `arrival − t`, so every `t` sent here is `time.monotonic()` in ms at the moment
of sending: the page's clock runs at the server's pace. A background thread reads everything
the server sends (gesture events would otherwise fill the client's queue and stall it).
"""
from __future__ import annotations

import json
import math
import threading
import time

from testkit import ConnectionClosed, hello

# A surface large enough that the long strokes stay on it.
SURFACE = (1600, 1200)
FRAME = 0.008  # seconds between batches: a fast phone's frame


def now_ms() -> float:
    return time.monotonic() * 1000.0


class Pad:
    """One touchpad (or observer) connection: `welcome`, senders, and what came back."""

    def __init__(self, server, role: str = "touchpad", surface: tuple[int, int] = SURFACE):
        self.ws = server.connect().__enter__()  # the connection itself (websockets ≥ 17.1 warns otherwise)
        self.welcome = hello(self.ws, role=role, width=surface[0], height=surface[1])
        assert self.welcome.get("type") == "welcome", f"hello answered {self.welcome}"
        self._last_t = 0.0
        self._messages: list[dict] = []
        self._lock = threading.Lock()
        self.closed = threading.Event()
        self._reader = threading.Thread(target=self._read, name="pad-reader", daemon=True)
        self._reader.start()

    # -- receiving -----------------------------------------------------------------------------
    def _read(self) -> None:
        try:
            while True:
                message = json.loads(self.ws.recv())
                with self._lock:
                    self._messages.append(message)
        except (ConnectionClosed, OSError, RuntimeError):
            pass
        finally:
            self.closed.set()

    def messages(self, since: int = 0, type_: str | None = None) -> list[dict]:
        with self._lock:
            found = self._messages[since:]
        return [m for m in found if type_ is None or m.get("type") == type_]

    def mark(self) -> int:
        with self._lock:
            return len(self._messages)

    def wait_message(self, predicate, since: int = 0, timeout: float = 3.0) -> dict | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.messages(since):
                if predicate(message):
                    return message
            time.sleep(0.005)
        return None

    def request(self, message: dict, timeout: float = 3.0) -> dict | None:
        """Sends one message and returns the first `error` that follows it, or None when a
        ping sent after it is answered first (the message was accepted)."""
        since = self.mark()
        self.send(message)
        probe = self.t()
        self.send({"type": "ping", "t": probe})
        answer = self.wait_message(lambda m: m.get("type") == "error"
                                   or (m.get("type") == "pong" and m.get("t") == probe), since, timeout)
        assert answer is not None, f"no answer to {message!r} nor to the ping after it"
        return answer if answer["type"] == "error" else None

    def sync(self, timeout: float = 3.0) -> None:
        """Round trip: everything sent before has been handled by the server."""
        since = self.mark()
        probe = self.t()
        self.send({"type": "ping", "t": probe})
        pong = self.wait_message(lambda m: m.get("type") == "pong" and m.get("t") == probe, since, timeout)
        assert pong is not None, "no pong: the server did not handle the input in time"

    # -- sending -------------------------------------------------------------------------------
    @property
    def last_t(self) -> float:
        """The `t` of the last message sent."""
        return round(self._last_t, 3)

    def t(self, at: float | None = None) -> float:
        """A `t` for now (or for `at`, ms), strictly after the last one sent: moves with the same
        `t` would be one step."""
        t = max(now_ms() if at is None else at, self._last_t + 0.01)
        self._last_t = t
        return round(t, 3)

    def send(self, messages) -> None:
        self.ws.send(json.dumps(messages))

    def _pointer(self, kind: str, pointer_id: int, x: float, y: float, t: float) -> dict:
        return {"type": kind, "id": pointer_id, "x": round(x, 3), "y": round(y, 3), "t": t,
                "pointerType": "touch"}

    def down(self, points: dict[int, tuple[float, float]]) -> None:
        """Fingers down together (one batch, one `t` each)."""
        self.send([self._pointer("down", i, x, y, self.t()) for i, (x, y) in points.items()])

    def up(self, points: dict[int, tuple[float, float]]) -> None:
        self.send([self._pointer("up", i, x, y, self.t()) for i, (x, y) in points.items()])

    def move(self, points: dict[int, tuple[float, float]]) -> None:
        """One step: every finger's move with the same `t`."""
        t = self.t()
        self.send([self._pointer("move", i, x, y, t) for i, (x, y) in points.items()])

    def tap(self, points: dict[int, tuple[float, float]], hold: float = 0.05) -> None:
        """Fingers down, `hold` seconds, up (a tap: within slop and tapMaxDuration)."""
        self.down(points)
        time.sleep(hold)
        self.up(points)

    def glide(self, start: dict[int, tuple[float, float]], steps: list[dict[int, tuple[float, float]]],
              per_frame: int = 1, frame: float = FRAME) -> dict[int, tuple[float, float]]:
        """Moves the fingers down at `start` by each step's offsets in turn, `per_frame` steps per
        batch and one batch per `frame` seconds, each step with its own `t` spread over the frame
        (as a browser's coalesced moves). Returns where the fingers end."""
        position = dict(start)
        begin = time.monotonic()
        for first in range(0, len(steps), per_frame):
            due = begin + (first // per_frame + 1) * frame
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            chunk = steps[first:first + per_frame]
            batch = []
            end = now_ms()
            for k, step in enumerate(chunk):
                t = self.t(end - (len(chunk) - 1 - k) * frame * 1000 / len(chunk))
                for i, (dx, dy) in step.items():
                    x, y = position[i]
                    position[i] = (x + dx, y + dy)
                    batch.append(self._pointer("move", i, *position[i], t))
            self.send(batch)
        return position

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self._reader.join(timeout=3)


def even_steps(dx: float, dy: float, count: int, fingers=(1,)) -> list[dict[int, tuple[float, float]]]:
    """`count` equal steps of every finger adding up to (dx, dy)."""
    return [{i: (dx / count, dy / count) for i in fingers} for _ in range(count)]


def spread_steps(center: tuple[float, float], span_from: float, span_to: float, count: int):
    """Two fingers on a horizontal line around `center`, span going from `span_from` to
    `span_to` in `count` steps (the centroid stays put). Returns (start points, steps)."""
    cx, cy = center
    start = {1: (cx - span_from / 2, cy), 2: (cx + span_from / 2, cy)}
    delta = (span_to - span_from) / 2 / count
    return start, [{1: (-delta, 0.0), 2: (delta, 0.0)} for _ in range(count)]


def zoom_steps(scale: float, step: float = 1.25) -> int:
    return math.floor(math.log(scale) / math.log(step) + 1e-9)
