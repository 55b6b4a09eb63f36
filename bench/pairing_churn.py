"""Gesture latency while paired phones come and go (issue 32): `gesturepad serve` with pairing
under the load generator (N connections × R Hz, all of one paired device), while K other
paired phones each open a connection, say hello and close it every second. Before the state
thread, each of those opens and closes rewrote devices.json (lock, JSON, fsync) on the service
thread, and every upgrade stat'ed the file; the completed-gesture p99 shows what that cost.

    python bench/pairing_churn.py GESTUREPAD LOADGEN [--connections 200] [--rate 120]
                                  [--phones 20] [--seconds 20] [--hold-lock S] [--label NAME]

Prints one JSON object: the load generator's (completed_p99_ms, …) plus the churn's count of
phone connections and failures. Run it for two binaries in one sitting to compare.
"""
import argparse
import fcntl
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

from websockets.sync.client import connect

SECRET = "bench-churn-secret-Secret0123456789abcdefZ"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("server did not listen")


def hello(ws) -> dict:
    ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}))
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message.get("type") == "welcome":
            return message


def pair_phones(port: int, count: int) -> list[str]:
    keys = []
    for index in range(count):
        with connect(f"ws://127.0.0.1:{port}/ws?token={SECRET}", proxy=None,
                     additional_headers={"User-Agent": f"ChurnPhone/{index}"}) as ws:
            keys.append(hello(ws)["device"]["key"])
    return keys


def churn(port: int, keys: list[str], stop: threading.Event, counts: dict) -> None:
    """Each key: one connection a second (open, hello, close), spread over the second."""
    next_round = time.monotonic()
    while not stop.is_set():
        for key in keys:
            if stop.is_set():
                break
            try:
                with connect(f"ws://127.0.0.1:{port}/ws?token={key}", proxy=None, open_timeout=5) as ws:
                    hello(ws)
                counts["connections"] += 1
            except Exception:  # noqa: BLE001 — a failure is counted, not fatal
                counts["failures"] += 1
        next_round += 1.0
        time.sleep(max(0.0, next_round - time.monotonic()))


def hold_lock(state: str, stop: threading.Event, seconds: float, every: float, counts: dict) -> None:
    """What `gesturepad devices` (or anyone) does under the lock, made slow: holds devices.lock
    for `seconds` out of every `every` seconds."""
    path = os.path.join(state, "gesturepad", "devices.lock")
    while not stop.wait(every - seconds):
        with open(path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            counts["lockHeld"] += 1
            stop.wait(seconds)
            fcntl.flock(lock, fcntl.LOCK_UN)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("gesturepad")
    parser.add_argument("loadgen")
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--rate", type=float, default=120)
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--label", default="")
    parser.add_argument("--hold-lock", type=float, default=0,
                        help="hold devices.lock this many seconds out of every 5 (another process editing the list)")
    options = parser.parse_args()

    port = free_port()
    state = tempfile.mkdtemp(prefix="gesturepad-churn-state-")
    env = dict(os.environ, XDG_STATE_HOME=state, XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="gesturepad-churn-config-"))
    server = subprocess.Popen(
        [options.gesturepad, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr", "--quiet",
         "--control", "off", "--notify", "off", "--token", SECRET, "--max-connections", "1000"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        wait_http(port, server)
        # The loaded connections are one paired device's (a device may have many connections):
        # each connection with the secret would pair a device of its own, and the server keeps
        # at most 32 (issue 32).
        load_key, *keys = pair_phones(port, options.phones + 1)
        stop = threading.Event()
        counts = {"connections": 0, "failures": 0, "lockHeld": 0}
        thread = threading.Thread(target=churn, args=(port, keys, stop, counts), daemon=True)
        thread.start()
        if options.hold_lock > 0:
            threading.Thread(target=hold_lock, args=(state, stop, options.hold_lock, 5.0, counts), daemon=True).start()
        load = subprocess.run(
            [options.loadgen, "--port", str(port), "--token", load_key, "--connections", str(options.connections),
             "--rate", str(options.rate), "--seconds", str(options.seconds), "--pid", str(server.pid),
             "--label", options.label],
            capture_output=True, text=True, timeout=options.seconds + 120)
        stop.set()
        thread.join(timeout=10)
        report = json.loads(load.stdout) if load.stdout.strip() else {"error": load.stderr[-400:]}
        report["churnConnections"] = counts["connections"]
        report["churnFailures"] = counts["failures"]
        report["churnPhones"] = options.phones
        report["lockHeldTimes"] = counts["lockHeld"]
        print(json.dumps(report))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
