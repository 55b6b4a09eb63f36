"""A recording TCP proxy between the browser and the server (tests/browser/test_browser_wire_proof.py),
and a reader of what it recorded: the HTTP requests and every WebSocket frame, client frames
unmasked (RFC 6455 §5.3) — else a search of the bytes for a secret would prove nothing.

The proxy can also alter the next frame either way that matches a test, in flight (a client
frame re-masked with the proxy's own key), as an attacker on the path would."""
from __future__ import annotations

import socket
import struct
import threading
from dataclasses import dataclass, field


@dataclass
class Frame:
    opcode: int
    payload: bytes  # unmasked
    masked: bool


@dataclass
class Recording:
    """One TCP connection: the bytes each way, in order."""
    to_server: bytearray = field(default_factory=bytearray)
    to_client: bytearray = field(default_factory=bytearray)


def split_head(data: bytes) -> tuple[bytes, bytes]:
    end = data.find(b"\r\n\r\n")
    return (data, b"") if end < 0 else (data[:end + 4], data[end + 4:])


def parse_frames(data: bytes) -> tuple[list[Frame], bytes]:
    """The complete frames at the start of `data`, unmasked, and what is left."""
    frames, at = [], 0
    while len(data) - at >= 2:
        b0, b1 = data[at], data[at + 1]
        length, head = b1 & 0x7F, 2
        if length == 126:
            if len(data) - at < 4:
                break
            length, head = struct.unpack(">H", data[at + 2:at + 4])[0], 4
        elif length == 127:
            if len(data) - at < 10:
                break
            length, head = struct.unpack(">Q", data[at + 2:at + 10])[0], 10
        masked = bool(b1 & 0x80)
        key = data[at + head:at + head + 4] if masked else b""
        start = at + head + (4 if masked else 0)
        if len(data) < start + length:
            break
        body = data[start:start + length]
        if masked:
            body = bytes(b ^ key[i % 4] for i, b in enumerate(body))
        frames.append(Frame(b0 & 0x0F, body, masked))
        at = start + length
    return frames, data[at:]


def encode_frame(opcode: int, payload: bytes, mask: bytes | None) -> bytes:
    """A final frame; masked with `mask` (4 bytes) when given, as a client's must be."""
    head = bytearray([0x80 | opcode])
    bit = 0x80 if mask else 0
    if len(payload) < 126:
        head.append(bit | len(payload))
    elif len(payload) < 65536:
        head += bytes([bit | 126]) + struct.pack(">H", len(payload))
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", len(payload))
    if not mask:
        return bytes(head) + payload
    return bytes(head) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def http_heads(stream: bytes) -> list[bytes]:
    """The request or response heads of an HTTP/1.1 stream without bodies (GETs; a WebSocket
    upgrade is the last)."""
    heads = []
    while stream:
        head, stream = split_head(stream)
        if not head.endswith(b"\r\n\r\n"):
            break
        heads.append(head)
        if b"upgrade: websocket" in head.lower():
            break
    return heads


def client_view(recording: Recording) -> tuple[list[bytes], list[Frame]]:
    """What the client sent: its HTTP request heads, and its WebSocket frames (unmasked)."""
    data = bytes(recording.to_server)
    heads = http_heads(data)
    if not heads or b"upgrade: websocket" not in heads[-1].lower():
        return heads, []
    frames, _ = parse_frames(data[sum(len(h) for h in heads):])
    return heads, frames


def server_frames(recording: Recording) -> list[Frame]:
    """The WebSocket frames the server sent (after its 101)."""
    data = bytes(recording.to_client)
    if not data.startswith(b"HTTP/1.1 101"):
        return []
    _, rest = split_head(data)
    return parse_frames(rest)[0]


def shut(*sockets: socket.socket) -> None:
    """Ends both directions of each socket (the relay's other half then stops too)."""
    for s in sockets:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class RecordingProxy:
    """Listens on a loopback port and relays each connection to `target`, recording it."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.recordings: list[Recording] = []
        self.lock = threading.Lock()
        # alter(payload) → new payload or None: applied once, to the first client text frame it
        # changes (alter_down: the first server text frame).
        self.alter = None
        self.alter_down = None
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            recording = Recording()
            with self.lock:
                self.recordings.append(recording)
            threading.Thread(target=self._upstream, args=(client, server, recording), daemon=True).start()
            threading.Thread(target=self._downstream, args=(server, client, recording), daemon=True).start()

    def _altered(self, frames: list[Frame], raw: bytes, name: str, mask: bytes | None) -> bytes:
        """`raw` (these frames), with the first text frame the alteration `name` changes changed."""
        if not getattr(self, name) or not frames:
            return raw
        out = b""
        for frame in frames:
            alter = getattr(self, name)
            changed = alter(frame.payload) if frame.opcode == 1 and alter else None
            if changed is not None:
                setattr(self, name, None)
            out += encode_frame(frame.opcode, changed if changed is not None else frame.payload, mask)
        return out

    def _upstream(self, client: socket.socket, server: socket.socket, recording: Recording) -> None:
        """Client → server, frame by frame once upgraded (so a frame can be altered whole)."""
        pending, upgraded = b"", False
        try:
            while chunk := client.recv(65536):
                recording.to_server += chunk
                pending += chunk
                if not upgraded:
                    head, rest = split_head(pending)
                    if not head.endswith(b"\r\n\r\n"):
                        continue
                    upgraded = b"upgrade: websocket" in head.lower()
                    if not upgraded:
                        server.sendall(pending)
                        pending = b""
                        continue
                    server.sendall(head)
                    pending = rest
                frames, left = parse_frames(pending)
                server.sendall(self._altered(frames, pending[:len(pending) - len(left)], "alter", b"\x5a\xa5\x3c\xc3"))
                pending = left
        except OSError:
            pass
        finally:
            shut(client, server)

    def _downstream(self, server: socket.socket, client: socket.socket, recording: Recording) -> None:
        """Server → client: as it comes, but frame by frame after a 101 (for `alter_down`)."""
        pending, framed = b"", False
        try:
            while chunk := server.recv(65536):
                recording.to_client += chunk
                if not framed and b"upgrade: websocket" not in bytes(recording.to_server[:8192]).lower():
                    client.sendall(chunk)
                    continue
                pending += chunk
                if not framed:
                    head, rest = split_head(pending)
                    if not head.endswith(b"\r\n\r\n"):
                        continue
                    framed = head.startswith(b"HTTP/1.1 101")
                    client.sendall(head if framed else pending)
                    pending = rest if framed else b""
                    if not framed:
                        continue
                frames, left = parse_frames(pending)
                client.sendall(self._altered(frames, pending[:len(pending) - len(left)], "alter_down", None))
                pending = left
        except OSError:
            pass
        finally:
            shut(server, client)

    def snapshot(self) -> list[Recording]:
        with self.lock:
            return [Recording(bytearray(r.to_server), bytearray(r.to_client)) for r in self.recordings]

    def close(self) -> None:
        self.stopped = True
        self.listener.close()


def behind_proxy(server, relay=None):
    """Starts `server` (a browser_harness.Server) and a relay in front of it (`relay(port)`, a
    recording proxy unless said); yields both, stops both."""
    server.start()
    proxy = (relay or RecordingProxy)(server.port)
    try:
        yield server, proxy
    finally:
        proxy.close()
        server.stop()
