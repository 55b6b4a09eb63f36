#!/usr/bin/env python3
"""End-to-end control latency: a WebSocket frame sent → the X pointer moved.

Starts its own Xvfb (a free display) and `gesturepad serve --control x11 --acceleration flat`
on a loopback port, opens one touchpad connection, puts a finger down, then sends single
`move` frames one at a time and polls XQueryPointer until the pointer has moved, timing each.
Prints one JSON object: p50 / p99 / max in ms over the moves.

    python3 bench/control_latency.py BINARY [--moves 300] [--out FILE]
Needs Xvfb (Debian xvfb) and Python websockets + python-xlib.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time

from websockets.sync.client import connect
from Xlib import display as xdisplay


def free_display():
    for n in range(150, 250):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return n
    raise SystemExit("no free X display number")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise SystemExit(f"timed out waiting for {what}")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--out")
    args = parser.parse_args()

    n = free_display()
    xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    server = None
    try:
        wait_for(lambda: os.path.exists(f"/tmp/.X11-unix/X{n}"), 10, "Xvfb")
        d = xdisplay.Display(f":{n}")
        root = d.screen().root
        root.warp_pointer(960, 540)
        d.sync()
        port = free_port()
        env = dict(os.environ, DISPLAY=f":{n}")
        server = subprocess.Popen([args.binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-qr",
                                   "--token", "bench-control-latency-Secret0123456789abcdefZ", "--quiet", "--control", "x11", "--acceleration", "flat"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def listening():
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0
        wait_for(listening, 10, "the server")
        samples = []
        with connect(f"ws://127.0.0.1:{port}/ws?token=bench-control-latency-Secret0123456789abcdefZ") as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 400, "height": 800}))
            ws.recv()
            t0 = time.monotonic() * 1000
            x = 200.0
            ws.send(json.dumps({"type": "down", "id": 1, "x": x, "y": 400, "t": t0, "pointerType": "touch"}))
            for i in range(args.moves):
                before = root.query_pointer().root_x
                x += 3 if before < 1500 else -3
                frame = json.dumps({"type": "move", "id": 1, "x": x, "y": 400, "t": t0 + 10 * (i + 1),
                                    "pointerType": "touch"})
                start = time.perf_counter()
                ws.send(frame)
                while root.query_pointer().root_x == before:
                    if time.perf_counter() - start > 1:
                        raise SystemExit("the pointer did not move within 1 s")
                samples.append((time.perf_counter() - start) * 1000)
            ws.send(json.dumps({"type": "up", "id": 1, "x": x, "y": 400, "t": t0 + 10 * (args.moves + 1),
                                "pointerType": "touch"}))
        result = {"bench": "control-latency", "moves": len(samples), "p50Ms": percentile(samples, 50),
                  "p99Ms": percentile(samples, 99), "maxMs": max(samples)}
        text = json.dumps(result)
        if args.out:
            open(args.out, "w").write(text + "\n")
        print(text)
    finally:
        if server:
            server.terminate()
            server.wait(timeout=10)
        os.killpg(xvfb.pid, signal.SIGTERM)
        xvfb.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
