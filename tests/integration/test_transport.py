"""The WebSocket transport against RFC 6455 where hand-made frames are needed (issue 12):
nothing after a Close, every refusal ends in a Close frame, close reasons, handshake extremes."""
import json
import subprocess
import time

import pytest

from testkit import RawClient, Server, binary

TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA
HELLO = json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}).encode()


def connect(server, **kwargs) -> RawClient:
    client = RawClient(server.port, f"/ws?token={server.token}", **kwargs)
    assert client.status == 101
    return client


def split_at_close(frames):
    """(frames before the first Close, the Close's code, frames after it)."""
    for index, (opcode, payload) in enumerate(frames):
        if opcode == CLOSE:
            return frames[:index], RawClient.close_code_of(payload), frames[index + 1:]
    return frames, None, []


# Frames lws itself fails the connection for (1002), each sent in the same write as a hello and
# a message that gets an answer, so answers are queued when lws sends its Close.
PROTOCOL_ERRORS = {
    "reserved bits": RawClient.encode(TEXT, b"x", rsv=2),
    "reserved opcode": RawClient.encode(0x3, b"x"),
    "fragmented ping": RawClient.encode(PING, b"x", fin=False),
    "continuation without a start": RawClient.encode(0x0, b"x"),
}


@pytest.mark.parametrize("bad", PROTOCOL_ERRORS.values(), ids=PROTOCOL_ERRORS.keys())
def test_nothing_is_sent_after_the_close_lws_sends_for_a_protocol_error(server, bad):
    client = connect(server)
    assert client.send_raw(RawClient.encode(TEXT, HELLO) + RawClient.encode(TEXT, b"not json") + bad)
    _, code, after = split_at_close(client.frames(timeout=3))
    client.close()
    assert code == 1002
    assert after == []  # RFC 6455 §5.5.1: no data frame after a Close


FAILURES = {
    "reserved bits": RawClient.encode(TEXT, b"x", rsv=2),
    "close reason not UTF-8": RawClient.encode(CLOSE, b"\x03\xe8\xff"),
    "close with a 1-byte body": RawClient.encode(CLOSE, b"a"),
}


@pytest.mark.parametrize("bad", FAILURES.values(), ids=FAILURES.keys())
def test_a_failed_connection_is_hung_up_right_after_its_close(server, bad):
    """Failing a connection (RFC 6455 §7.1.7) is a Close and then the end of the TCP connection:
    no waiting for an answering Close that lws could not parse or that will never come."""
    client = connect(server)
    assert client.send_raw(bad)
    start = time.monotonic()
    _, code, _ = split_at_close(client.frames(timeout=4, answer_close=False))
    elapsed = time.monotonic() - start
    client.close()
    assert code in (1002, 1007)
    assert elapsed < 2  # lws alone waits 5 s


def test_nothing_is_sent_after_the_close_for_an_oversize_message(server):
    client = connect(server)
    oversize = RawClient.encode(TEXT, b" " * 70_000)
    assert client.send_raw(RawClient.encode(TEXT, HELLO) + RawClient.encode(TEXT, b"not json") + oversize)
    _, code, after = split_at_close(client.frames(timeout=3))
    client.close()
    assert code == 1009
    assert after == []


@pytest.mark.parametrize("fragment", [64, 256])
def test_oversize_message_in_small_fragments_closes_with_1009(server, fragment):
    client = connect(server)
    count = 200_000 // fragment
    message = b"".join(RawClient.encode(TEXT if i == 0 else 0x0, b" " * fragment, fin=False) for i in range(count))
    client.send_raw(message)  # the server may close before it has read everything
    _, code, after = split_at_close(client.frames(timeout=5))
    client.close()
    assert code == 1009
    assert after == []


@pytest.mark.parametrize("reason", [b"bye \xff\xfe", b"\xce\xba\xed\xa0\x80edited"], ids=["bad bytes", "surrogate"])
def test_close_reason_that_is_not_utf8_is_answered_1007(server, reason):
    client = connect(server)
    client.frame(CLOSE, b"\x03\xe8" + reason)
    _, code, after = split_at_close(client.frames(timeout=3, answer_close=False))
    client.close()
    assert code == 1007
    assert after == []


def test_close_with_a_valid_reason_is_echoed(server):
    client = connect(server)
    client.frame(CLOSE, b"\x03\xe8" + "au revoir ✓".encode())
    _, code, _ = split_at_close(client.frames(timeout=3, answer_close=False))
    client.close()
    assert code == 1000


def test_close_with_a_one_byte_body_is_answered_1002(server):
    client = connect(server)
    client.frame(CLOSE, b"a")
    _, code, _ = split_at_close(client.frames(timeout=3, answer_close=False))
    client.close()
    assert code == 1002


def extension_offer(length: int) -> str:
    """A plausible offer (permessage-deflate variants) of exactly `length` bytes."""
    offer = ("permessage-deflate; client_no_context_takeover, " * (length // 40 + 1))[:length]
    return offer[:-1] + "x"


@pytest.mark.parametrize("length", [254, 255, 1000])
def test_any_extension_offer_gets_an_http_answer(server, length):
    offer = extension_offer(length)
    assert len(offer) == length
    client = RawClient(server.port, f"/ws?token={server.token}", headers={"Sec-WebSocket-Extensions": offer})
    status = client.status
    client.close()
    # No extension is ever negotiated: a short offer is accepted without it; one lws cannot
    # parse (255 bytes or more) is refused as too large, never left without an answer.
    assert status == (101 if length < 255 else 431)


def test_only_connections_the_server_hears_nothing_from_are_pinged(page_dir):
    """The keep-alive ping is for silent connections: one that keeps sending is alive and is
    never pinged; one that sends nothing is pinged after the idle time (2 s here, 30 s by default)."""
    with Server(public=page_dir, extra=["--test-keepalive", "2"]) as server:
        busy, idle = connect(server), connect(server)
        busy.frame(TEXT, HELLO)
        idle.frame(TEXT, HELLO)
        seen = {"busy": [], "idle": []}
        start = time.monotonic()
        while time.monotonic() - start < 4.5:
            busy.frame(TEXT, b'{"type":"ping","t":1}')
            seen["busy"] += busy.frames(timeout=0.2)
            seen["idle"] += idle.frames(timeout=0.2)
        busy.close()
        idle.close()
    assert PING not in [opcode for opcode, _ in seen["busy"]]
    assert PING in [opcode for opcode, _ in seen["idle"]]


def test_conformance_echo_mode_is_test_only(page_dir):
    """`--test-echo` (what Autobahn runs against) echoes text, still refuses binary with 1003,
    and appears in no normal help."""
    assert "--test-echo" not in subprocess.run([str(binary()), "serve", "--help"], capture_output=True,
                                               text=True, timeout=30).stdout
    with Server(public=page_dir, extra=["--test-echo"]) as server:
        with server.connect() as ws:
            ws.send("not a gesture ✓")
            assert ws.recv(timeout=3) == "not a gesture ✓"
        client = connect(server)
        client.frame(BINARY, b"\x00")
        _, code, _ = split_at_close(client.frames(timeout=3))
        client.close()
        assert code == 1003
