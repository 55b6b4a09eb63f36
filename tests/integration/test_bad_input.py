"""PROTOCOL.md "Bad input": each answer, and other connections unaffected."""
import json
import time

from testkit import ConnectionClosed, RawClient, Server, close_code, collect, hello, recv_json


def send_may_be_cut(ws, message):
    """Sends; the server may close before the client has finished writing."""
    try:
        ws.send(message)
    except ConnectionClosed:
        pass


def tap(ws, x=100, y=100, t=1000.0, pointer_id=1):
    ws.send(json.dumps({"type": "down", "id": pointer_id, "x": x, "y": y, "t": t, "pointerType": "touch"}))
    ws.send(json.dumps({"type": "up", "id": pointer_id, "x": x, "y": y, "t": t + 60, "pointerType": "touch"}))


def test_binary_frame_closes_with_1003(server):
    with server.connect() as ws:
        hello(ws)
        send_may_be_cut(ws, b"\x00\x01binary")
        assert close_code(ws) == 1003


def test_oversize_message_closes_with_1009(server):
    with server.connect() as ws:
        hello(ws)
        send_may_be_cut(ws, "[" + " " * 70_000 + "]")
        assert close_code(ws) == 1009


def test_oversize_fragmented_message_closes_with_1009(server):
    with server.connect() as ws:
        send_may_be_cut(ws, ["[" + " " * 40_000, " " * 40_000 + "]"])
        assert close_code(ws) == 1009


def test_message_size_limit_is_an_option(page_dir):
    with Server(public=page_dir, extra=["--max-message-bytes", "1000"]) as server:
        with server.connect() as ws:
            send_may_be_cut(ws, " " * 1001)
            assert close_code(ws) == 1009


def test_invalid_utf8_closes_with_1007(server):
    client = RawClient(server.port, f"/ws?token={server.token}")
    assert client.status == 101
    client.frame(0x1, b'{"type":"ping","t":1,"x":"\xff\xfe"}')
    assert client.close_code() == 1007
    client.close()


def test_truncated_utf8_at_message_end_closes_with_1007(server):
    client = RawClient(server.port, f"/ws?token={server.token}")
    client.frame(0x1, b'"caf\xc3', fin=False)
    client.frame(0x0, b"", fin=True)
    assert client.close_code() == 1007
    client.close()


def test_fragmented_text_is_reassembled(server):
    with server.connect() as ws:
        message = json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844})
        ws.send([message[:10], message[10:25], message[25:]])
        assert recv_json(ws)["type"] == "welcome"


def test_garbage_gets_error_and_others_keep_their_gestures(server):
    with server.connect() as bad, server.connect() as good:
        hello(bad)
        hello(good)
        bad.send("this is not json")
        error = recv_json(bad)
        assert error["type"] == "error" and error["code"] == "bad_json"
        bad.send(json.dumps({"type": "warp", "t": 1}))
        assert recv_json(bad)["code"] == "unknown_type"
        tap(good)
        gestures = collect(good, 1.0, types=("gesture",))
        assert any(g["gesture"] == "tap" for g in gestures)
        # The bad connection is still open and answers.
        bad.send(json.dumps({"type": "ping", "t": 5}))
        replies = collect(bad, 1.0)
        assert any(r["type"] == "pong" and r["t"] == 5 for r in replies)


def test_message_before_hello_is_refused(server):
    with server.connect() as ws:
        ws.send(json.dumps({"type": "ping", "t": 1}))
        error = recv_json(ws)
        assert error["type"] == "error" and error["code"] == "hello_required"


def test_errors_in_a_row_close_with_1008_while_others_go_on(server):
    with server.connect() as bad, server.connect() as good:
        hello(bad)
        hello(good)
        for _ in range(25):
            bad.send("garbage")
        assert close_code(bad) == 1008
        tap(good, t=2000.0)
        gestures = collect(good, 1.0, types=("gesture",))
        assert any(g["gesture"] == "tap" for g in gestures)


def test_flooding_closes_with_1008(page_dir):
    with Server(public=page_dir, extra=["--max-rate", "50"]) as server:
        with server.connect() as ws:
            hello(ws)
            for i in range(400):
                try:
                    ws.send(json.dumps({"type": "ping", "t": i}))
                except Exception:
                    break
            assert close_code(ws) == 1008


def test_too_many_pointers_gets_error(page_dir):
    with Server(public=page_dir, extra=["--max-pointers", "2"]) as server:
        with server.connect() as ws:
            hello(ws)
            for pointer in range(3):
                ws.send(json.dumps({"type": "down", "id": pointer, "x": 100 + pointer * 50, "y": 100,
                                    "t": 1000.0 + pointer, "pointerType": "touch"}))
            errors = [m for m in collect(ws, 1.0) if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["too_many_pointers"]


def test_observer_that_stops_reading_is_dropped_and_others_go_on(page_dir):
    import socket
    import threading
    with Server(public=page_dir, extra=["--max-rate", "1000000"]) as server:
        observer = RawClient(server.port, f"/ws?token={server.token}")
        observer.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        observer.frame(0x1, json.dumps({"type": "hello", "protocol": 1, "role": "observer", "width": 390,
                                        "height": 844}).encode())
        with server.connect() as flood, server.connect() as quiet:
            hello(flood)
            hello(quiet)
            done = threading.Event()

            def drain():  # the touchpad reads its own echo; only the observer is slow
                while not done.is_set():
                    try:
                        flood.recv(timeout=0.2)
                    except TimeoutError:
                        pass
                    except ConnectionClosed:
                        return

            reader = threading.Thread(target=drain)
            reader.start()
            t = 1000.0
            flood.send(json.dumps({"type": "down", "id": 1, "x": 100, "y": 100, "t": t, "pointerType": "touch"}))
            latencies = []
            for batch_number in range(300):
                batch = []
                for _ in range(100):
                    t += 1
                    batch.append({"type": "move", "id": 1, "x": 100 + t % 200, "y": 100 + t % 50, "t": t,
                                  "pointerType": "touch"})
                flood.send(json.dumps(batch))
                if batch_number % 30 == 0:
                    sent = time.monotonic()
                    quiet.send(json.dumps({"type": "ping", "t": batch_number}))
                    assert recv_json(quiet, timeout=5)["type"] == "pong"
                    latencies.append(time.monotonic() - sent)
            deadline = time.monotonic() + 15
            while "slow consumer" not in server.stderr() and time.monotonic() < deadline:
                time.sleep(0.2)
            done.set()
            reader.join()
            assert "slow consumer" in server.stderr()
            assert max(latencies) < 1.0
            quiet.send(json.dumps({"type": "ping", "t": -1}))
            assert recv_json(quiet, timeout=5)["type"] == "pong"
        observer.close()


def unsent_bytes(sock) -> int:
    """Bytes this socket has sent that the peer has not taken yet (Linux SIOCOUTQ)."""
    import fcntl
    import struct
    import termios
    return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0]


def test_backlog_read_after_the_server_paused_reading_is_not_a_burst(page_dir):
    """A touchpad that stops reading while it keeps sending under the rate limit: its drag
    events fill the network and then its send queue, so the server stops reading from it, and
    what it sends meanwhile waits in the network. When it reads again that backlog arrives at
    once; it was sent at an allowed rate, so it is no burst (no 1008)."""
    import socket
    rate = 5_000
    with Server(public=page_dir, extra=["--max-rate", str(rate)]) as server:
        client = RawClient(server.port, f"/ws?token={server.token}", receive_buffer=4096)
        assert client.status == 101
        client.frame(0x1, json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390,
                                      "height": 844}).encode())
        t = 1000.0
        client.frame(0x1, json.dumps({"type": "down", "id": 1, "x": 100, "y": 100, "t": t,
                                      "pointerType": "touch"}).encode())
        client.sock.settimeout(2)
        # 40 % of the limit (a batch every 25 ms), so a busy machine that holds the server up for
        # a moment does not make a burst of its own: moves, each answered by a drag event of
        # about 280 bytes, until the server has stopped reading (what we send stays unsent),
        # then 3.5 s of pings, more than the bucket's one-second burst, wait in the network.
        per_batch = rate * 4 // 10 // 40
        sent, paused_at, start = 0, None, time.monotonic()
        try:
            while time.monotonic() - start < 30:
                if paused_at is None and unsent_bytes(client.sock) > 32_768:
                    paused_at = time.monotonic()
                if paused_at is not None and time.monotonic() - paused_at > 3.5:
                    break
                batch = []
                for i in range(per_batch):
                    t += 1
                    batch.append({"type": "ping", "t": t} if paused_at else
                                 {"type": "move", "id": 1, "x": 100 + (sent + i) % 150, "y": 100, "t": t,
                                  "pointerType": "touch"})
                client.sock.sendall(RawClient.encode(0x1, json.dumps(batch).encode()))
                sent += len(batch)
                time.sleep(0.025)
        except (socket.timeout, TimeoutError):
            pass  # the network is full
        assert paused_at is not None, "the server never stopped reading"
        client.frame(0x1, b'{"type":"ping","t":-1}')
        frames = client.frames(timeout=20, until=lambda opcode, payload: opcode == 0x8 or b'"t":-1,' in payload)
        client.close()
        assert not [payload for opcode, payload in frames if opcode == 0x8]
        assert b'"t":-1,' in frames[-1][1]  # the last ping's pong: every message was read
