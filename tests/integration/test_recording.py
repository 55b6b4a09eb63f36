"""`serve --record DIR`: every touchpad session's input in one trace file, replayable into the
gestures that session got live; a disconnect mid-gesture or a killed server still leaves a
valid file; a file past its bound ends with a note."""
import json
import re
import signal
import socket
import subprocess
import threading
from pathlib import Path

from testkit import TRACES, Server, binary, collect, eventually, hello, load_trace, paced_frames, recv_json, replay, send_paced

NAME = re.compile(r"^\d{8}T\d{6}\.\d{3}Z-session-(\d+)\.jsonl$")


def recordings(folder: Path) -> dict[str, Path]:
    """Recording files by session id."""
    found = {}
    for path in folder.iterdir():
        match = NAME.match(path.name)
        assert match, f"unexpected file {path.name}"
        found[match.group(1)] = path
    return found


def replay_full(path: Path) -> tuple[list[dict], str]:
    result = subprocess.run([str(binary()), "replay", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()], result.stderr


def play(server, name: str, out: dict):
    """One touchpad session of trace `name`, paced by its `t`; records what it received."""
    lines = load_trace(f"{name}.jsonl")
    with server.connect() as ws:
        last_t, lateness = send_paced(ws, lines)
        received = collect(ws, 1.5)
    session = next(m["session"] for m in received if m["type"] == "welcome")
    frames = [frame for _, frame in paced_frames(lines)]  # what went out, one frame per line
    out[name] = {"session": session, "lines": frames, "last_t": last_t, "lateness": lateness,
                 "gestures": [m for m in received if m["type"] == "gesture"]}


TRACES_PLAYED = ["tap_single", "long_press", "swipe_left", "pinch_rotate"]


def test_each_session_is_one_file_that_replays_what_it_got_live(page_dir, tmp_path):
    """Four touchpad sessions at once (paced public traces) plus an observer: four files, one
    per session, each holding exactly the frames sent, and `replay` of each gives the gestures
    that session received live."""
    for attempt in range(3):
        folder = tmp_path / f"recordings-{attempt}"
        with Server(public=page_dir, extra=["--record", str(folder)]) as server:
            assert f"Recording every touchpad session into {folder}" in server.stdout()
            with server.connect() as observer:
                hello(observer, role="observer")
                played: dict = {}
                threads = [threading.Thread(target=play, args=(server, name, played)) for name in TRACES_PLAYED]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
            assert server.stop() == 0
        # Timers run on real time: the comparison holds when the messages went out on
        # schedule. On a machine too busy to keep the pace, the run is repeated.
        if max(p["lateness"] for p in played.values()) < 40 or attempt == 2:
            break
    files = recordings(folder)
    assert sorted(files) == sorted(p["session"] for p in played.values())
    for name, run in played.items():
        path = files[run["session"]]
        assert path.stat().st_mode & 0o777 == 0o600
        assert path.read_text().splitlines() == run["lines"], name
        expected, stderr = replay_full(path)
        assert stderr == ""
        horizon = (run["last_t"] or 0) + 1000
        live = [{**g, "session": "replay"} for g in run["gestures"] if g["t"] <= horizon]
        assert live and expected == live, f"{name}: sent up to {run['lateness']:.0f} ms late"
        assert expected == replay(TRACES / f"{name}.jsonl")


def test_disconnect_mid_gesture_leaves_a_valid_file(page_dir, tmp_path):
    """A phone that drops off mid-drag (the TCP connection just goes): the file holds every
    frame sent, hello first, each line valid JSON; it replays without an error into what the
    session got before it went (replay's end is not a cancel: nothing is invented)."""
    folder = tmp_path / "recordings"
    lines = load_trace("drag_slow.jsonl")
    half = lines[: len(lines) // 2]
    with Server(public=page_dir, extra=["--record", str(folder)]) as server:
        with server.connect() as observer:
            hello(observer, role="observer")
            with server.connect() as ws:
                last_t, _ = send_paced(ws, half)
                got = [m for m in collect(ws, 0.5) if m["type"] == "gesture"]
                assert any(g["gesture"] == "drag" and g["phase"] == "began" for g in got)
                ws.socket.shutdown(socket.SHUT_RDWR)  # no close frame: the network went away
            seen = collect(observer, 2.0)
            assert {"gesture": "drag", "phase": "cancelled"} in [
                {"gesture": m.get("gesture"), "phase": m.get("phase")} for m in seen]
        files = recordings(folder)
        assert len(files) == 1
        path = next(iter(files.values()))
        # The file was closed with the session: complete while the server still runs.
        assert eventually(lambda: path.read_text().splitlines() == [f for _, f in paced_frames(half)])
    for line in path.read_text().splitlines():
        json.loads(line)
    assert json.loads(path.read_text().splitlines()[0])["type"] == "hello"
    replayed, stderr = replay_full(path)
    assert stderr == ""
    assert replayed[: len(got)] == [{**g, "session": "replay"} for g in got]
    assert all(g["t"] > last_t for g in replayed[len(got):])


def test_killed_server_leaves_every_frame_handled(page_dir, tmp_path):
    """Frames are written as they come (no buffer to lose): after SIGKILL the file holds
    every frame the server handled."""
    folder = tmp_path / "recordings"
    lines = load_trace("swipe_left.jsonl")
    server = Server(public=page_dir, extra=["--record", str(folder)])
    try:
        with server.connect() as ws:
            send_paced(ws, lines)
            ws.send(json.dumps({"type": "ping", "t": 99999.0}))
            assert any(m["type"] == "pong" for m in collect(ws, 1.0))  # every frame handled
            path = next(iter(recordings(folder).values()))
            frames = [frame for _, frame in paced_frames(lines)]
            assert eventually(lambda: len(path.read_text().splitlines()) == len(frames) + 1)
            server.process.send_signal(signal.SIGKILL)
            server.process.wait(timeout=10)
        assert path.read_text().splitlines() == frames + [json.dumps({"type": "ping", "t": 99999.0})]
    finally:
        server.returncode = -9
        if server.process.poll() is None:
            server.process.kill()
        for f in (server.out, server.err):
            f.close()


def test_a_file_past_its_bound_ends_with_a_note(page_dir, tmp_path):
    """--record-max-bytes: the file stops below the bound with a note line, the server warns,
    and replay says the note on stderr while replaying the frames before it."""
    folder = tmp_path / "recordings"
    lines = load_trace("drag_slow.jsonl")
    with Server(public=page_dir, extra=["--record", str(folder), "--record-max-bytes", "2048"]) as server:
        with server.connect() as ws:
            for line in lines:
                ws.send(line)
            collect(ws, 0.5)
        path = next(iter(recordings(folder).values()))
        assert eventually(lambda: "recording truncated" in server.stderr())
    text = path.read_text()
    recorded = text.splitlines()
    note = json.loads(recorded[-1])
    assert note["type"] == "note" and "2048 bytes" in note["text"]
    assert len(text) - len(recorded[-1]) - 1 <= 2048
    assert recorded[:-1] == lines[: len(recorded) - 1]
    _, stderr = replay_full(path)
    assert stderr.strip() == f"line {len(recorded)}: note: {note['text']}"


def test_observers_and_refused_connections_are_not_recorded(page_dir, tmp_path):
    folder = tmp_path / "recordings"
    with Server(public=page_dir, extra=["--record", str(folder)]) as server:
        with server.connect() as observer:
            hello(observer, role="observer")
            observer.send(json.dumps({"type": "ping", "t": 1.0}))
            recv_json(observer)
        with server.connect() as silent:
            silent.send(json.dumps({"type": "ping", "t": 1.0}))
            assert recv_json(silent)["code"] == "hello_required"
    assert list(folder.iterdir()) == []
