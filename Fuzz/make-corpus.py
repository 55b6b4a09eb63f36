#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets (docs/testing.md "Corpus").

    Fuzz/make-corpus.py        # rewrites Fuzz/Corpus/<target>/ from the sources below

Sources: the trace fixtures (Tests/Fixtures/traces/*.jsonl), a few control messages (text,
key, button, settings) and hostile times, and the example configuration. The engine and
control seeds use the byte layout of Fuzz/FuzzSupport/FuzzScript.swift, every number as a
raw double (tag 0xFF), so the seeds replay the traces exactly. Deterministic: running it
twice writes the same files.
"""
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
TRACES = sorted((ROOT / "Tests/Fixtures/traces").glob("*.jsonl"))
CORPUS = ROOT / "Fuzz/Corpus"

# FuzzScript op codes (the low nibble of a step's first byte).
DOWN, MOVE, UP, CANCEL, CANCEL_ALL, LEAVE, RESIZE, CLOCK = range(8)
FRAME_END, ADVANCE, ADVANCE_TO_DEADLINE, COMMAND, SETTINGS, RELEASE_ALL = range(8, 14)
POINTER_TYPES = {"touch": 0, "mouse": 1, "pen": 2}

CONTROL_LINES = [
    '{"type":"text","text":"héllo\\tworld"}',
    '{"type":"key","key":"a","modifiers":["Control","Shift"]}',
    '{"type":"key","key":"Enter"}',
    '{"type":"button","button":"left","action":"down"}',
    '{"type":"button","button":"left","action":"up"}',
    '{"type":"button","button":"right","action":"click"}',
    '{"type":"spotlight","do":"show"}',
    '{"type":"spotlight","do":"hide"}',
    '{"type":"media","do":"watch"}',
    '{"type":"media","do":"seek","position":30000}',
    '{"type":"media","do":"volume","volume":0.25}',
    '{"type":"settings","speed":1.4,"acceleration":"flat","naturalScroll":false,"scrollSpeed":1,'
    '"tapToClick":true,"tapAndDrag":true,"dragLock":true,"leftHanded":true}',
]


def number(value):
    """A number as a raw double: tag 0xFF and 8 little-endian bytes."""
    return b"\xff" + struct.pack("<d", float(value))


def pointer_id(value):
    return bytes([value & 0x0F]) if 0 <= value < 16 else b"\xff" + struct.pack("<q", value)


def header(hello, settings_flags=0, contacts=False):
    out = bytes([0])  # no threshold overrides
    out += number(hello.get("width", 400)) + number(hello.get("height", 800))
    out += bytes([19 if contacts else 9])  # maxPointers 10; 10–19: touches passed through as contacts
    return out + bytes([settings_flags])


def sample(op, m):
    kind = POINTER_TYPES.get(m.get("pointerType", "touch"), 0)
    extra = b""
    if "buttons" in m:
        kind |= 4
        extra += bytes([m["buttons"] & 0xFF])
    if "pressure" in m:
        kind |= 8
        extra += number(m["pressure"])
    return bytes([op]) + pointer_id(m["id"]) + number(m["t"]) + number(m["x"]) + number(m["y"]) + bytes([kind]) + extra


def script_step(m):
    kind = m.get("type")
    if kind in ("down", "move", "up"):
        return sample({"down": DOWN, "move": MOVE, "up": UP}[kind], m)
    if kind == "cancel":
        if m.get("id") == "all":
            return bytes([CANCEL_ALL]) + number(m["t"])
        return bytes([CANCEL]) + pointer_id(m["id"]) + number(m["t"])
    if kind == "leave":
        return bytes([LEAVE]) + pointer_id(m["id"]) + number(m["t"])
    if kind == "resize":
        return bytes([RESIZE]) + number(m["width"]) + number(m["height"])
    if kind == "ping":
        return bytes([CLOCK]) + number(m["t"])
    return b""


def script(lines, settings_flags=0, extra=b"", contacts=False):
    """A trace as a FuzzScript: each line's messages, then the end of the frame."""
    messages = [json.loads(line) for line in lines if line.strip()]
    hello = next((m for m in messages if isinstance(m, dict) and m.get("type") == "hello"), {})
    out = header(hello, settings_flags, contacts)
    last_t = 0.0
    for message in messages:
        for m in message if isinstance(message, list) else [message]:
            out += script_step(m)
            last_t = m.get("t", last_t)
        out += bytes([FRAME_END, ADVANCE_TO_DEADLINE])
    return out + extra + bytes([ADVANCE]) + number(last_t + 1000)


def protocol(lines, options="#"):
    """A trace as FuzzProtocol lines: each frame arrives when its page time says."""
    out = [options]
    last_t = None
    for line in lines:
        if not line.strip():
            continue
        message = json.loads(line)
        first = message[0] if isinstance(message, list) and message else message
        t = first.get("t") if isinstance(first, dict) else None
        delay = 0 if t is None or last_t is None else round(t - last_t, 3)
        last_t = t if t is not None else last_t
        out.append(f"@{delay:g} {line.strip()}")
    out += ["~", "~1000"]
    return ("\n".join(out) + "\n").encode()


def flicks():
    """Three fast two-finger flicks (1,250 px/s up): the first coasts to rest, the second
    is stopped by a touch, the third by the key the seed sends after them (kinetic
    scrolling's stop rules)."""
    lines, t = [], 1000
    for stop in ("rest", "touch", "key"):
        fingers = [(1, 100), (2, 200)]
        lines.append(json.dumps([{"type": "down", "id": i, "t": t, "x": x, "y": 500, "pointerType": "touch"}
                                 for i, x in fingers]))
        for step in range(1, 11):
            lines.append(json.dumps([{"type": "move", "id": i, "t": t + 16 * step, "x": x, "y": 500 - 20 * step,
                                      "pointerType": "touch"} for i, x in fingers]))
        lines.append(json.dumps([{"type": "up", "id": i, "t": t + 166, "x": x, "y": 300, "pointerType": "touch"}
                                 for i, x in fingers]))
        if stop == "touch":
            lines.append(json.dumps({"type": "down", "id": 3, "t": t + 300, "x": 50, "y": 50, "pointerType": "touch"}))
            lines.append(json.dumps({"type": "up", "id": 3, "t": t + 350, "x": 50, "y": 50, "pointerType": "touch"}))
        t += 2000 if stop == "rest" else 400
    return lines


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def main():
    for folder in CORPUS.glob("*"):
        for seed in folder.glob("*"):
            seed.unlink()
    for trace in TRACES:
        lines = trace.read_text().splitlines()
        name = trace.stem
        write("FuzzProtocol", name, protocol(lines))
        write("FuzzEngine", name, script(lines))
        write("FuzzControl", name, script(lines, settings_flags=0x10 if "drag" in name else 0))
    hello = '{"type":"hello","protocol":1,"role":"touchpad","width":400,"height":800}'
    down = '{"type":"down","id":1,"t":10,"x":100,"y":100,"pointerType":"touch"}'
    write("FuzzProtocol", "control_messages", protocol([hello, down] + CONTROL_LINES))
    write("FuzzProtocol", "control_uinput", protocol([hello] + CONTROL_LINES, options="#u"))
    # The touchpad backend: touches passed through as contacts (a few multi-finger traces).
    for name in ("swipe_three_finger", "scroll_two_finger", "pinch_out", "cancel_drag", "tap_three_finger"):
        lines = (ROOT / f"Tests/Fixtures/traces/{name}.jsonl").read_text().splitlines()
        write("FuzzProtocol", f"touchpad_{name}", protocol(lines, options="#t"))
        write("FuzzControl", f"touchpad_{name}", script(lines, contacts=True))
    write(
        "FuzzProtocol",
        "hostile_times",
        protocol(
            [
                hello,
                down,
                '{"type":"move","id":1,"t":9.3e20,"x":120,"y":100,"pointerType":"touch"}',
                '{"type":"down","id":2,"t":1e19,"x":100,"y":100,"pointerType":"touch"}',
                '{"type":"ping","t":1e12}',
            ]
        ),
    )
    write("FuzzProtocol", "observer", protocol(['{"type":"hello","protocol":1,"role":"observer"}', down]))
    nonce = "A" * 43
    write(
        "FuzzProtocol",
        "auth",
        protocol(
            [
                '{"type":"auth","with":"secret","nonce":"%s","proof":"%s","model":"Pixel 8"}' % (nonce, nonce),
                '{"type":"auth","with":"secret","nonce":"%s","proof":"%s","kind":"observer"}' % (nonce, nonce),
                '{"type":"auth","with":"device","device":"6d4054b3d55f","nonce":"%s","proof":"%s","model":null}'
                % (nonce, nonce),
                '{"type":"auth","with":"secret","nonce":"%s","kx":"CQ%s","proof":"%s"}' % (nonce, nonce[2:], nonce),
                '{"type":"auth","with":"device","device":"6d4054b3d55f","nonce":"%s","kx":"%s","dk":"_-%s","proof":"%s"}'
                % (nonce, nonce, nonce[2:], nonce),
                '{"type":"auth","with":"ticket","device":"6d4054b3d55f","nonce":"%s","proof":"%s"}' % (nonce, nonce),
                # refused: a device key without the exchange's, a short nonce, an id over 64 bytes
                '{"type":"auth","with":"device","device":"6d4054b3d55f","nonce":"%s","dk":"%s","proof":"%s"}'
                % (nonce, nonce, nonce),
                '{"type":"auth","with":"secret","nonce":"%s","proof":"%s"}' % (nonce[:42], nonce),
                '{"type":"auth","with":"device","device":"%s","nonce":"%s","proof":"%s"}' % ("d" * 65, nonce, nonce),
                '{"type":"auth","with":"desktop","nonce":"%s","proof":"%s","model":"Pixel \\u00e9\\ud83d\\ude00"}'
                % (nonce, nonce),
                hello,
            ]
        ),
    )
    commands = bytes([COMMAND, 2, 1]) + bytes([COMMAND, 1, 0x41, 0x03]) + bytes([COMMAND, 2, 4])
    commands += bytes([SETTINGS, 0xFF, 0xF0]) + number(2.5) + number(0.5) + bytes([RELEASE_ALL])
    taps = (ROOT / "Tests/Fixtures/traces/tap_double.jsonl").read_text().splitlines()
    write("FuzzControl", "commands_and_settings", script(taps, extra=commands))
    key = bytes([COMMAND, 1, 0x41, 0x00])  # the key stops the third flick's coast
    write("FuzzControl", "kinetic_flicks", script(flicks(), extra=key + bytes([ADVANCE_TO_DEADLINE] * 60)))
    write("FuzzConfig", "example.yaml", (ROOT / "examples/gesturepad.yaml").read_bytes())
    write("FuzzConfig", "gestures.yaml", b"gestures:\n  repeatInterval: 0.001\n  decelerationRate: 0.5\n")
    write(
        "FuzzConfig",
        "control.yaml",
        b"control:\n  backend: uinput\n  speed: 2\n  swipeKeys:\n    left: Control++\n    up: none\n"
        b"  tapButtons: [right]\n  releaseAfterSilence: 500\n",
    )
    write("FuzzConfig", "line_breaks.yaml", "server:\r  port: 1\r\nlog:\u2028 [a".encode())
    write("FuzzConfig", "errors.yaml", b"server:\n  port: 70000\n  limits: [1]\nhooks:\n  - gesture: tap\n    run: []\n")


if __name__ == "__main__":
    main()
