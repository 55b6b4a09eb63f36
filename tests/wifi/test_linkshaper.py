"""The link shaper (linkshaper.py): each profile's delays as drawn for a fixed seed, judged on
arrival times given to the model (no clock, no sleeping); order kept behind a late chunk; and
the real proxy between a client and an echo server — every byte through, in order, never
before its release time — from the class and from its command line."""
from __future__ import annotations

import bisect
import itertools
import random
import socket
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from linkshaper import PROFILES, DelayLink, LinkShaper, link_model

HERE = Path(__file__).resolve().parent
SEED = 41


def quantile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(p / 100 * len(ordered)) - 1)]


def own_delays(profile: str, count: int = 20_000, seed=SEED) -> list[float]:
    """Each chunk's own delay in ms: chunks 1 s apart, so none waits behind another."""
    model = link_model(profile, seed)
    return [(model.release(float(i)) - i) * 1000 for i in range(count)]


# -- the models ----------------------------------------------------------------------------------

def test_loopback_delays_nothing():
    """loopback: every chunk leaves when it arrives."""
    assert set(own_delays("loopback", 1000)) == {0.0}


def test_home_is_3_plus_minus_2_ms():
    """home: delays within 1–5 ms, spread evenly around 3 ms."""
    delays = own_delays("home")
    assert 1.0 <= min(delays) and max(delays) <= 5.0, (min(delays), max(delays))
    assert 2.9 <= quantile(delays, 50) <= 3.1
    assert 1.3 <= quantile(delays, 10) <= 1.5 and 4.5 <= quantile(delays, 90) <= 4.7


def test_busy_has_a_heavy_tail():
    """busy: median 5–7 ms; 1 % (± 0.2) of chunks held 40–70 ms more (the tail: p99.5 beyond
    40 ms), the rest mostly under 20 ms; capped at 250 ms."""
    delays = own_delays("busy")
    p50 = quantile(delays, 50)
    assert 5 <= p50 <= 7, p50
    held = sum(d > 40 for d in delays) / len(delays)
    assert 0.008 <= held <= 0.012, held
    assert quantile(delays, 99.5) > 40
    assert quantile(delays, 98) < 20, quantile(delays, 98)
    assert max(delays) <= 250 and min(delays) > 0


def test_loss_retransmits_2_percent_40_ms_later():
    """loss: 2 % (± 0.3) of chunks 40 ms late on top of their 1–3 ms; the others 1–3 ms."""
    delays = own_delays("loss")
    late = [d for d in delays if d >= 40]
    prompt = [d for d in delays if d < 40]
    assert 0.017 <= len(late) / len(delays) <= 0.023, len(late)
    assert all(41 <= d <= 43 for d in late), (min(late), max(late))
    assert all(1 <= d <= 3 for d in prompt), (min(prompt), max(prompt))


def test_powersave_releases_bursts_40_to_100_ms_apart():
    """powersave: chunks every 1 ms leave together at wake-ups 40–100 ms apart (mean ≈ 70), each
    at the first wake-up at or after its arrival."""
    model = link_model("powersave", SEED)
    arrivals = [i / 1000 for i in range(20_000)]
    releases = [model.release(a) for a in arrivals]
    wakes = sorted(set(releases))
    gaps = [(b - a) * 1000 for a, b in itertools.pairwise(wakes)]
    assert 40 <= min(gaps) and max(gaps) <= 100, (min(gaps), max(gaps))
    assert 65 <= sum(gaps) / len(gaps) <= 75
    assert len(wakes) >= 20_000 / 100
    for arrival, release in zip(arrivals, releases, strict=True):
        first = wakes[bisect.bisect_left(wakes, arrival)]  # the first wake-up at or after it
        assert release == first, (arrival, release, first)


@pytest.mark.parametrize("profile", list(PROFILES))
def test_release_times_never_go_backwards(profile):
    """Whatever the arrivals (bursts, pauses), a chunk never leaves before the one ahead of it."""
    rng = random.Random(7)
    model = link_model(profile, SEED)
    arrival, last = 0.0, -1.0
    for _ in range(5000):
        arrival += rng.choice((0.0, 0.0005, 0.008, 0.05))
        release = model.release(arrival)
        assert release >= arrival and release >= last, (profile, arrival, release, last)
        last = release


def test_a_late_chunk_holds_up_those_behind_it():
    """Head-of-line blocking: 60 ms for the first chunk keeps the next two (1 ms each) until then."""
    draws = iter([0.060, 0.001, 0.001, 0.001])
    model = DelayLink(lambda rng: next(draws), random.Random(0))
    releases = [model.release(a) for a in (0.0, 0.005, 0.010, 0.100)]
    assert releases == pytest.approx([0.060, 0.060, 0.060, 0.101])


def test_a_seed_repeats_its_schedule():
    """The same seed and connection give the same delays; another seed or connection others."""
    def schedule(**kw):
        model = link_model("busy", **kw)
        return [model.release(i / 120) for i in range(200)]

    assert schedule(seed=1) == schedule(seed=1)
    assert schedule(seed=1) != schedule(seed=2)
    assert schedule(seed=1, connection=0) != schedule(seed=1, connection=1)


# -- the proxy -----------------------------------------------------------------------------------

class _Echo(socketserver.BaseRequestHandler):
    def handle(self):
        while data := self.request.recv(65536):
            self.server.received.append((time.monotonic(), data))
            self.request.sendall(data)
        self.request.shutdown(socket.SHUT_WR)


@pytest.fixture
def echo():
    """A TCP echo server on 127.0.0.1 that keeps what it received, with the time."""
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    server.received = []
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def read_all(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_byte_arrives_in_order_never_before_its_release(echo, profile):
    """400 chunks of 1–3,000 random bytes, sent at once, through each profile: the echo server
    gets exactly them in order, the client gets them back, and each chunk was written to the
    server in order, no earlier than its release time."""
    rng = random.Random(profile)
    chunks = [rng.randbytes(rng.randint(1, 3000)) for _ in range(400)]
    with LinkShaper(echo.server_address, profile, SEED) as link, \
            socket.create_connection(("127.0.0.1", link.port), timeout=5) as sock:
        for chunk in chunks:
            sock.sendall(chunk)
        sock.shutdown(socket.SHUT_WR)
        echoed = read_all(sock)
    sent = b"".join(chunks)
    assert b"".join(data for _, data in echo.received) == sent
    assert echoed == sent
    shaped = link.chunks
    assert sum(c.size for c in shaped) == len(sent)
    assert all(c.written is not None and c.written >= c.release - 1e-6 for c in shaped)
    for before, after in itertools.pairwise(shaped):
        assert after.release >= before.release and after.written >= before.written


def test_the_proxy_holds_what_follows_a_late_chunk(echo):
    """A first chunk held 80 ms: the second (not held) reaches the server with it, after it."""
    def model(connection):
        draws = iter([0.080] + [0.0] * 10)
        return DelayLink(lambda rng: next(draws), random.Random(0))

    with LinkShaper(echo.server_address, model=model) as link, \
            socket.create_connection(("127.0.0.1", link.port), timeout=5) as sock:
        started = time.monotonic()
        sock.sendall(b"first")
        deadline = time.monotonic() + 5
        while not link.chunks and time.monotonic() < deadline:  # read as a chunk of its own
            time.sleep(0.001)
        sock.sendall(b"second")
        sock.shutdown(socket.SHUT_WR)
        assert read_all(sock) == b"firstsecond"
    first_seen = echo.received[0][0]
    assert b"".join(data for _, data in echo.received) == b"firstsecond"
    assert first_seen - started >= 0.080, f"the held chunk reached the server after {first_seen - started:.3f} s"
    first, second = link.chunks
    assert second.release == first.release and second.written >= first.written


def test_the_command_line_forwards(echo):
    """`linkshaper.py --profile home --listen 0 --to HOST:PORT` prints its port and forwards."""
    host, port = echo.server_address
    process = subprocess.Popen([sys.executable, str(HERE / "linkshaper.py"), "--profile", "home", "--listen", "0",
                                "--to", f"{host}:{port}", "--seed", "3"], stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("linkshaper: 127.0.0.1:") and "profile home" in line, line
        listen = int(line.split()[1].rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", listen), timeout=5) as sock:
            sock.sendall(b"hello through the link")
            sock.shutdown(socket.SHUT_WR)
            assert read_all(sock) == b"hello through the link"
    finally:
        process.terminate()
        assert process.wait(timeout=5) == 0


def test_an_unknown_profile_is_refused():
    with pytest.raises(ValueError, match="unknown profile"):
        LinkShaper(("127.0.0.1", 1), "satellite")
