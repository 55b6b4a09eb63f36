#!/usr/bin/env python3
"""The touchpad backend's latency: a WebSocket frame sent → its contact written to the device.

There is no /dev/uinput here, so the server runs `--control touchpad --test-touchpad-output
FIFO`: everything real (parse, engine, mapping, the backend's queue, thread, pacer, slots and
encoder) but the last write goes into a FIFO this script reads, timing each frame as it comes
out. One touchpad connection puts a finger down and owns the touchpad; then, one at a time,
single `move` frames (each with its own x, so each written frame is known by its position):
first on a quiet server, then while `gesturepad-loadgen` runs 200 touchpad connections at
120 Hz (their touches are ignored while the finger is down: the load is the server's and the
backend's work on them). Last, the pacing by design: 10 moves spanning 80 ms of `t` in one
frame, and when each came out.

    python3 bench/touchpad_latency.py BINARY LOADGEN [--moves 300] [--out FILE]
Prints one JSON object (ms): quiet / load p50, p99, max, and the burst's offsets.

A frame's time is taken from its events' own `timeval`, which the server stamps as it writes
them (the kernel's stamp for a uinput device; `FileOutput`): when the frame went out, not when
this script's reading thread got the CPU (under load that thread alone adds milliseconds).
Each result also gives `read`, the same frames timed by their read, and a binary that does not
stamp its events is timed by the read alone (`"clock": "read"`).
"""
import argparse
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

from websockets.sync.client import connect

EVENT = struct.Struct("@qqHHi")  # struct input_event on 64-bit Linux: timeval, type, code, value
ABS_MT_POSITION_X = 0x35
EV_ABS, EV_SYN = 3, 0
UNITS_PER_CSS = 25.4 / 160 * 40  # docs/control.md
# As bench/run.sh: the server on CPU 0, the clients on CPU 1, when taskset and two CPUs exist.
PIN_SERVER, PIN_CLIENT = [], []
if shutil.which("taskset") and (os.cpu_count() or 1) >= 2:
    PIN_SERVER, PIN_CLIENT = ["taskset", "-c", "0"], ["taskset", "-c", "1"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class FifoReader:
    """Reads the touchpad's events; notes when each frame's x position came out."""

    def __init__(self, path):
        self.path = path
        # (x units, monotonic time written, monotonic time read) of each frame that moved the
        # finger; x only grows. The time written is the events' stamp (None: not stamped).
        self.written = []
        self.cond = threading.Condition()
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        with open(self.path, "rb", buffering=0) as fifo:
            pending, x = b"", None
            while True:
                chunk = fifo.read(EVENT.size * 64)
                if not chunk:
                    return
                now = time.monotonic()
                pending += chunk
                while len(pending) >= EVENT.size:
                    sec, usec, type_, code, value = EVENT.unpack_from(pending)
                    pending = pending[EVENT.size:]
                    if type_ == EV_ABS and code == ABS_MT_POSITION_X:
                        x = value
                    elif type_ == EV_SYN and x is not None:
                        stamp = sec + usec / 1e6 if sec or usec else None
                        with self.cond:
                            self.written.append((x, stamp, now))
                            self.cond.notify_all()
                        x = None

    def first(self, timeout=10.0):
        """The x of the first frame written (the finger's first position on the device)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not self.written:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit("no frame was written")
                self.cond.wait(left)
            return self.written[0][0]

    def wait(self, units, timeout=10.0):
        """When the finger first reached x ≥ `units` on the device (a move the server's full
        queue dropped is made up by a later one: what the user sees is when the pointer got
        there): (time written or None, time read)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                reached = next(((stamp, read) for x, stamp, read in self.written if x >= units), None)
                if reached is not None:
                    return reached
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"no frame reached x = {units}")
                self.cond.wait(left)




def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("loadgen")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--out")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="gesturepad-touchpad-bench-")
    fifo = os.path.join(folder, "touchpad")
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    port = free_port()
    public = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Public")
    server = subprocess.Popen(
        [*PIN_SERVER, args.binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-auth", "--no-qr", "--quiet",
         "--public", public, "--control", "touchpad", "--test-touchpad-output", fifo, "--max-rate", "1000000",
         "--max-connections", "1100"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "XDG_STATE_HOME": folder})
    loadgen = None
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        ws = connect(f"ws://127.0.0.1:{port}/ws", compression=None, ping_interval=None, open_timeout=5).__enter__()
        ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}))
        ws.recv(timeout=5)

        def drain():  # gesture frames the server sends back, read so they never back up
            try:
                while True:
                    ws.recv()
            except Exception:  # noqa: BLE001 — the connection closes at the end
                pass

        threading.Thread(target=drain, daemon=True).start()

        def now_ms():
            return time.monotonic() * 1000

        def send(kind, x, t):
            ws.send(json.dumps({"type": kind, "id": 1, "x": x, "y": 400.0, "t": t, "pointerType": "touch"}))

        x = 10.0
        send("down", x, now_ms())
        # The surface lies on the device where the server places it (centred on a device of one
        # size, at its real size: 6.35 units a CSS px): positions are counted from the first.
        base = reader.first()

        def units(v):
            return base + int((v - 10.0) * UNITS_PER_CSS + 0.5) - 1

        def summary(delays):
            return {"p50": round(percentile(delays, 50), 3), "p99": round(percentile(delays, 99), 3),
                    "max": round(max(delays), 3)}

        def measure(count):
            nonlocal x
            written, read = [], []
            for _ in range(count):
                x += 0.5  # 3.2 units: every frame's x is new
                sent = time.monotonic()
                send("move", x, sent * 1000)
                stamp, seen = reader.wait(units(x))
                read.append((seen - sent) * 1000)
                written.append((stamp if stamp is not None else seen) - sent)
                time.sleep(max(0.0, 1 / 60 - (time.monotonic() - sent)))
            return {**summary([d * 1000 for d in written]), "moves": count, "read": summary(read)}

        def at(v):  # when the frame reaching x = v went out: its stamp, else its read
            stamp, seen = reader.wait(units(v))
            return stamp if stamp is not None else seen

        quiet = measure(args.moves)
        loadgen = subprocess.Popen(
            [*PIN_CLIENT, args.loadgen, "--port", str(port), "--server", "gesture", "--connections", "200", "--rate", "120",
             "--seconds", str(args.moves / 60 + 4), "--warmup", "1"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        time.sleep(2)  # connected and at rate
        loaded = measure(args.moves)

        # Pacing by design: 10 moves 8 ms apart in `t`, in one frame — what a network that held
        # them back delivers (their `t`s are in the past).
        time.sleep(0.1)
        sent = time.monotonic()
        t0 = sent * 1000 - 80
        batch, xs = [], []
        for k in range(1, 11):
            x += 0.5
            xs.append(x)
            batch.append({"type": "move", "id": 1, "x": x, "y": 400.0, "t": t0 + 8 * k, "pointerType": "touch"})
        ws.send(json.dumps(batch))
        burst = [round((at(v) - sent) * 1000, 2) for v in xs]
        send("up", x, now_ms() + 100)
        stamped = all(stamp is not None for _, stamp, _ in reader.written)
        result = {"quiet": quiet, "load": loaded, "burst": burst, "clock": "event" if stamped else "read",
                  "loadavg": os.getloadavg()[0]}
        text = json.dumps(result)
        print(text)
        if args.out:
            with open(args.out, "w") as out:
                out.write(text + "\n")
    finally:
        if loadgen:
            loadgen.terminate()
            loadgen.wait(timeout=10)
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        if os.environ.get("BENCH_DEBUG"):
            sys.stderr.write("\n".join(l for l in server.stderr.read().decode(errors="replace").splitlines() if "connection" not in l and "session" not in l)[-3000:])


if __name__ == "__main__":
    sys.exit(main())
