#!/usr/bin/env python3
"""A Wi-Fi link in user space: a TCP proxy that delays what the client sends.

This kernel has no netem, so the phone's uneven Wi-Fi is played by a proxy between the client
(the stroke driver, a browser) and the server. It listens on 127.0.0.1 (or `--bind`) and
forwards every byte, in order, to the server. The client → server direction — where the
phone's frames travel — is shaped by a profile; the server → client direction is forwarded as
it comes, unshaped.

A *chunk* is what one read of the client's socket returns (a WebSocket frame, for a client
that sends one frame at a time with TCP_NODELAY). Each chunk gets a release time from the
profile's link model; it is written to the server then, never before the chunk ahead of it:
TCP keeps order, so a late chunk holds up every chunk behind it (head-of-line blocking). No
byte is dropped, none reordered — a "lost" chunk is a retransmitted one, only late.

Profiles (`PROFILES`), each a deterministic function of a seed (per connection, so a run
repeats exactly whatever else the machine does):

    loopback   no shaping
    home       each chunk 3 ± 2 ms (uniform)
    busy       a heavy tail: lognormal, median 6 ms; 1 % of chunks held 40–70 ms more; capped at 250 ms
    loss       1–3 ms (uniform); 2 % of chunks lost and retransmitted 40 ms later
    powersave  held until the radio wakes: wake-ups 40–100 ms apart (uniform), each a burst

The quoted delays are each chunk's own draw; head-of-line blocking adds to them under traffic.

    python tests/wifi/linkshaper.py --profile busy --listen PORT --to HOST:PORT [--seed N] [--bind ADDRESS]

Or from a test: `with LinkShaper(("127.0.0.1", server_port), "busy", seed=1) as link:` and
connect to `link.port`. `link.chunks` records every shaped chunk (arrival, release, written).
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import random
import signal
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

MS = 0.001


class LinkModel(Protocol):
    """One direction of one connection: when each chunk may leave (seconds, monotonic)."""

    def release(self, arrival: float) -> float: ...


class DelayLink:
    """Each chunk delayed by its own draw, then held behind the chunk before it."""

    def __init__(self, draw: Callable[[random.Random], float], rng: random.Random):
        self._draw = draw
        self._rng = rng
        self._last = -math.inf

    def release(self, arrival: float) -> float:
        own = arrival + max(0.0, self._draw(self._rng))
        self._last = max(own, self._last)
        return self._last


class BurstLink:
    """Aggregation / power save: chunks wait for the radio's next wake-up and leave together.

    Wake-ups are `low`–`high` seconds apart (uniform); the first comes within `high` of the
    first chunk. A chunk arriving exactly at a wake-up leaves with it."""

    def __init__(self, low: float, high: float, rng: random.Random):
        self._low, self._high = low, high
        self._rng = rng
        self._wake: float | None = None

    def release(self, arrival: float) -> float:
        if self._wake is None:
            self._wake = arrival + self._rng.uniform(0.0, self._high)
        while self._wake < arrival:
            self._wake += self._rng.uniform(self._low, self._high)
        return self._wake


def _no_delay(rng: random.Random) -> float:
    return 0.0


def _home(rng: random.Random) -> float:
    return rng.uniform(1 * MS, 5 * MS)


# Calibrated so that carrying moves out as they arrive gives what issue 41 measured on its busy
# link at the X server: latency p99 ≈ 68 ms, 7–11 % of display frames frozen, jumps of 4–6×.
BUSY_MEDIAN = 6 * MS
BUSY_SIGMA = 0.5
BUSY_HOLD_RATE = 0.01  # a chunk in a hundred is held back …
BUSY_HOLD_LOW = 40 * MS  # … this much more, up to
BUSY_HOLD_HIGH = 70 * MS
BUSY_CAP = 250 * MS


def _busy(rng: random.Random) -> float:
    delay = rng.lognormvariate(math.log(BUSY_MEDIAN), BUSY_SIGMA)
    if rng.random() < BUSY_HOLD_RATE:
        delay += rng.uniform(BUSY_HOLD_LOW, BUSY_HOLD_HIGH)
    return min(delay, BUSY_CAP)


LOSS_RATE = 0.02
RETRANSMIT = 40 * MS


def _loss(rng: random.Random) -> float:
    base = rng.uniform(1 * MS, 3 * MS)
    return base + RETRANSMIT if rng.random() < LOSS_RATE else base


@dataclass(frozen=True)
class Profile:
    name: str
    summary: str
    make: Callable[[random.Random], LinkModel]


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("loopback", "no shaping", lambda rng: DelayLink(_no_delay, rng)),
    Profile("home", "3 ± 2 ms (uniform)", lambda rng: DelayLink(_home, rng)),
    Profile("busy", "lognormal, median 6 ms; 1 % held 40–70 ms more", lambda rng: DelayLink(_busy, rng)),
    Profile("loss", "1–3 ms; 2 % retransmitted after 40 ms", lambda rng: DelayLink(_loss, rng)),
    Profile("powersave", "bursts at wake-ups 40–100 ms apart", lambda rng: BurstLink(40 * MS, 100 * MS, rng)),
)}


def link_model(profile: str, seed: int | str = 0, connection: int = 0) -> LinkModel:
    """The client → server model of `profile` for the `connection`-th connection (from 0)."""
    return PROFILES[profile].make(random.Random(f"{profile}:{seed}:{connection}"))


@dataclass
class Chunk:
    """One shaped chunk: its connection (from 0), index on that connection, size in bytes, and
    when it arrived, was due and was written (time.monotonic() seconds)."""
    connection: int
    index: int
    size: int
    arrival: float
    release: float
    written: float | None = None

    @property
    def delay(self) -> float | None:
        """Arrival → written, seconds (None while it waits)."""
        return None if self.written is None else self.written - self.arrival


class LinkShaper:
    """The proxy, on an event loop in a thread of its own: `start()` (or `with`), `port`,
    `stop()`. `model` replaces the profile: model(connection) → LinkModel (tests)."""

    def __init__(self, target: tuple[str, int], profile: str = "loopback", seed: int | str = 0,
                 host: str = "127.0.0.1", port: int = 0,
                 model: Callable[[int], LinkModel] | None = None):
        if model is None and profile not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}; one of {', '.join(PROFILES)}")
        self.target = target
        self.profile = profile
        self.seed = seed
        self.host = host
        self.port = port
        self.chunks: list[Chunk] = []
        self._model = model or (lambda connection: link_model(profile, seed, connection))
        self._connections = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task] = set()
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> LinkShaper:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                self._server = loop.run_until_complete(
                    asyncio.start_server(self._handle, self.host, self.port))
                self.port = self._server.sockets[0].getsockname()[1]
            except BaseException as error:  # noqa: BLE001 — handed to start()'s caller
                failure.append(error)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name=f"linkshaper-{self.profile}", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or not thread.is_alive():
            return
        asyncio.run_coroutine_threadsafe(self._close(), loop).result(timeout=5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def __enter__(self) -> LinkShaper:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- one connection ----------------------------------------------------------------------
    async def _handle(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self._tasks.add(task)
        number = next(self._connections)
        server_out = None
        try:
            server_in, server_out = await asyncio.open_connection(*self.target)
            for writer in (client_out, server_out):
                sock = writer.get_extra_info("socket")
                if sock is not None:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            pumps = [asyncio.ensure_future(self._shaped(client_in, server_out, number)),
                     asyncio.ensure_future(self._plain(server_in, client_out))]
            try:  # both directions to their end, or until one fails (a reset): then both go
                await asyncio.wait(pumps, return_when=asyncio.FIRST_EXCEPTION)
            finally:
                for pump in pumps:
                    pump.cancel()
                await asyncio.gather(*pumps, return_exceptions=True)
        except OSError:
            pass  # the server is not there: the client is hung up on
        finally:
            for writer in (client_out, server_out):
                if writer is not None:
                    writer.close()
            self._tasks.discard(task)

    async def _plain(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()

    async def _shaped(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, number: int) -> None:
        loop = asyncio.get_running_loop()
        model = self._model(number)
        queue: asyncio.Queue[tuple[Chunk, bytes] | None] = asyncio.Queue()

        async def deliver() -> None:
            while (item := await queue.get()) is not None:
                chunk, data = item
                wait = chunk.release - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                chunk.written = loop.time()
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()

        delivery = asyncio.ensure_future(deliver())
        try:
            for index in itertools.count():
                data = await reader.read(65536)
                if not data:
                    break
                arrival = loop.time()
                chunk = Chunk(number, index, len(data), arrival, model.release(arrival))
                self.chunks.append(chunk)
                queue.put_nowait((chunk, data))
            queue.put_nowait(None)  # the client's end: what waits is still delivered, then EOF
            await delivery
        finally:
            delivery.cancel()
            await asyncio.gather(delivery, return_exceptions=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=list(PROFILES), default="loopback")
    parser.add_argument("--listen", type=int, default=0, metavar="PORT",
                        help="port to listen on (0: a free one, printed)")
    parser.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS", help="address to listen on")
    parser.add_argument("--to", required=True, metavar="HOST:PORT", help="the server")
    parser.add_argument("--seed", default="0", help="the same seed gives the same delays")
    args = parser.parse_args(argv)
    host, _, port = args.to.rpartition(":")
    if not host or not port.isdigit():
        parser.error("--to takes HOST:PORT")
    shaper = LinkShaper((host.strip("[]"), int(port)), args.profile, args.seed, host=args.bind, port=args.listen)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with shaper:
        print(f"linkshaper: {args.bind}:{shaper.port} -> {host}:{port}, profile {args.profile} "
              f"({PROFILES[args.profile].summary}), seed {args.seed}", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
