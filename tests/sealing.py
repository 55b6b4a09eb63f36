"""The page's half of a proven connection's sealing (docs/protocol.md "Proof handshake",
"Sealed messages"), written here with Python's hmac and `cryptography`'s ChaCha20-Poly1305 as
an independent reference for the server's and the page's: HKDF, `PageSeal`, and
`open_page_frames`, which reads a recorded connection as the page wrote it."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable


def hkdf(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """HKDF-SHA256 (RFC 5869) with Python's own hmac: the reference the page's and the server's
    are checked against (docs/protocol.md "Proof handshake")."""
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PageSeal:
    """The page's half of a proven connection's sealing (docs/protocol.md "Sealed messages"),
    written here with `cryptography`'s ChaCha20-Poly1305 as an independent reference: keys from
    HKDF over the credential's digest and both nonces, a counter nonce per direction, the
    plaintext padded with spaces to its size class (64 … 1,024 bytes, then 1,024s)."""

    def __init__(self, digest: bytes, server_nonce: bytes, client_nonce: bytes):
        from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305  # tests/requirements.txt

        keys = hkdf(digest, server_nonce + client_nonce, b"gesturepad/1 session keys", 64)
        self._to_server, self._to_page = ChaCha20Poly1305(keys[:32]), ChaCha20Poly1305(keys[32:])
        self.sent = self.received = 0

    @staticmethod
    def padded_length(count: int) -> int:
        size = 64
        while size < count and size < 1024:
            size *= 2
        return size if count <= size else -(-count // 1024) * 1024

    @staticmethod
    def _nonce(n: int) -> bytes:
        return bytes(4) + n.to_bytes(8, "little")

    def seal(self, message) -> str:
        """The frame that carries `message` (a message or a list of them) sealed."""
        plain = json.dumps(message, separators=(",", ":")).encode()
        plain += b" " * (self.padded_length(len(plain)) - len(plain))
        box = self._to_server.encrypt(self._nonce(self.sent), plain, None)
        self.sent += 1
        return '{"type":"sealed","box":"' + b64(box) + '"}'

    def open_from_page(self, frame: str) -> str | None:
        """The plaintext (padding removed) of a sealed frame the page sent; None if it does not
        open. Counts the page's frames (`sent`), as the server does."""
        box = unb64(json.loads(frame)["box"])
        try:
            plain = self._to_server.decrypt(self._nonce(self.sent), box, None)
        except Exception:  # cryptography's InvalidTag
            return None
        self.sent += 1
        return plain.decode().rstrip(" ")

    def open(self, frame: str):
        """The message in a frame from the server: opened when sealed (None if it does not
        open), as it is otherwise."""
        data = json.loads(frame)
        if not (isinstance(data, dict) and data.get("type") == "sealed"):
            return data
        box = unb64(data["box"])
        try:
            plain = self._to_page.decrypt(self._nonce(self.received), box, None)
        except Exception:  # cryptography's InvalidTag
            return None
        self.received += 1
        return json.loads(plain)

    def recv(self, ws, timeout: float = 3.0):
        return self.open(ws.recv(timeout=timeout))

    def hello(self, ws, role: str = "touchpad", width: int = 390, height: int = 844) -> dict:
        ws.send(self.seal({"type": "hello", "protocol": 1, "role": role, "width": width, "height": height,
                           "dpr": 3, "client": "pytest"}))
        return self.recv(ws)


def open_page_frames(sent: list[str], received: list[str], secret: str | None,
                     stored_key: Callable[[], str | None] = lambda: None,
                     exchanges: list[dict] | None = None) -> list[str]:
    """The frames a page sent over its connections (`sent`, in order, several connections one
    after the other), each sealed one opened: the keys come from each connection's `challenge`
    (the n-th in `received`) and `auth`, and the credential it proved — the pairing `secret`,
    or a device key derived when this recording paired it, else `stored_key()` (the page's
    localStorage). An `auth` with `kx` (docs/protocol.md "Key exchange") cannot be opened from
    the wire and the credential — that is the point — so its key and transcript come from
    `exchanges` (what the page kept under the test hook, in order). A frame that does not open
    stays as it was."""
    challenges = [m for m in (json.loads(f) for f in received if f.startswith('{"type":"challenge"'))
                  if m.get("nonce")]
    exchanged = list(exchanges or [])
    out: list[str] = []
    seal = None
    derived: str | None = None
    connection = 0
    for frame in sent:
        data = json.loads(frame)
        if isinstance(data, dict) and data.get("type") == "auth" and data.get("kx"):
            seal = None
            kept = next((e for e in exchanged if unb64(e["client"])[:32] == unb64(data["nonce"])), None)
            if kept is not None and connection < len(challenges):
                seal = PageSeal(unb64(kept["key"]), unb64(challenges[connection]["nonce"]), unb64(kept["client"]))
            connection += 1
            out.append(frame)
        elif isinstance(data, dict) and data.get("type") == "auth":
            seal = None
            if connection < len(challenges):
                server_nonce, client_nonce = unb64(challenges[connection]["nonce"]), unb64(data["nonce"])
                credential = secret if data.get("with") == "secret" else (derived or stored_key())
                if credential:
                    digest = hashlib.sha256(credential.encode()).digest()
                    seal = PageSeal(digest, server_nonce, client_nonce)
                    if data.get("with") == "secret":
                        derived = b64(hkdf(digest, server_nonce + client_nonce, b"gesturepad/1 device key", 32))
            connection += 1
            out.append(frame)
        elif isinstance(data, dict) and data.get("type") == "sealed" and seal is not None:
            out.append(seal.open_from_page(frame) or frame)
        else:
            out.append(frame)
    return out
