"""Shared helpers for the integration tests: start the real `gesturepad` binary on a loopback
port, talk to it over HTTP and real WebSockets, stop it with SIGTERM.

The binary is $GESTUREPAD_BIN (default .build/debug/gesturepad, relative to the repository).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import inspect
import json
import os
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: F401 (re-exported)
from websockets.sync.client import connect as ws_connect

from sealing import PageSeal, hkdf  # noqa: F401 (the tests import them from here)

REPO = Path(__file__).resolve().parent.parent
# websockets ≥ 15 honours proxy environment variables unless told `proxy=None`; older ones have no such option.
_CONNECT_TAKES_PROXY = "proxy" in inspect.signature(ws_connect).parameters
TRACES = REPO / "Tests" / "Fixtures" / "traces"


def binary() -> Path:
    path = Path(os.environ.get("GESTUREPAD_BIN", ".build/debug/gesturepad"))
    return path if path.is_absolute() else REPO / path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def private_env() -> dict:
    """The environment for a `gesturepad` a test starts: never the user's own state directory
    (the remembered token, the paired devices, the TLS keys) nor the user's configuration file
    (~/.config/gesturepad/config.yaml is read without --config) — a fresh one of each."""
    env = dict(os.environ)
    env["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="gesturepad-state-")
    env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="gesturepad-config-")
    return env


class Server:
    """A running `gesturepad serve` on 127.0.0.1. Use as a context manager; `stop()` sends
    SIGTERM and returns the exit status."""

    def __init__(self, public: Path | str | None = None, token: str | None = "test-token-Secret0123456789abcdefZ",
                 extra: list[str] | None = None, env: dict[str, str | None] | None = None,
                 drop_public: bool = False, program: Path | str | None = None, cwd: Path | str | None = None,
                 port: int | None = None, address_flags: bool = True, stderr=None):
        """`env` entries override the environment (None removes a variable); `stderr` is an
        open file for the server's standard error (a temporary one by default); `program` is
        another binary than $GESTUREPAD_BIN (an installed one); `cwd` its working directory.
        `address_flags=False` passes neither --host nor --port: the configuration file (or the
        defaults) decide, and `port` says where the server is expected to answer."""
        self.port = port or free_port()
        self.token = token
        self.public = Path(public) if public else REPO / "Public"
        args = [str(program or binary()), "serve"]
        if address_flags:
            args += ["--host", "127.0.0.1", "--port", str(self.port)]
        args += ["--no-qr"]
        if not drop_public:
            args += ["--public", str(self.public)]
        if token is not None:
            args += ["--token", token]
        extra = list(extra or [])
        # Tests never drive the developer's own desktop: control is off unless a test asks, and
        # no desktop notification pops up (pairing) unless a test asks for one on its own bus.
        if "--control" not in extra:
            extra += ["--control", "off"]
        if "--notify" not in extra and token is not None:
            extra += ["--notify", "off"]
        args += extra
        self.args = args
        self.out = tempfile.NamedTemporaryFile(prefix="gesturepad-out-", delete=False)
        self.err = stderr or tempfile.NamedTemporaryFile(prefix="gesturepad-err-", delete=False)
        full_env = private_env()
        full_env.pop("GESTUREPAD_TOKEN", None)
        self.state_home = full_env["XDG_STATE_HOME"]
        for name, value in (env or {}).items():
            if value is None:
                full_env.pop(name, None)
            else:
                full_env[name] = value
        self.env = full_env
        self.process = subprocess.Popen(args, stdout=self.out, stderr=self.err, env=full_env, cwd=cwd or REPO)
        self.returncode: int | None = None
        self.killed = False
        self._wait_ready()

    def _wait_ready(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}: {self.stderr()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    if s.recv(16).startswith(b"HTTP/"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not answer HTTP in time: " + self.stderr())

    # -- output -------------------------------------------------------------------------
    def stdout(self) -> str:
        return Path(self.out.name).read_text(errors="replace")

    def stderr(self) -> str:
        return Path(self.err.name).read_text(errors="replace")

    # -- HTTP ---------------------------------------------------------------------------
    def http_url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        """GET `path` as written (no normalisation); returns status, headers, body."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers, body

    def pairing_status(self, token: str | None, headers: dict[str, str] | None = None) -> tuple[int, dict]:
        """`GET /pairing?token=` (docs/protocol.md "Pairing status"): the status, and the JSON
        body of a 200 ({} otherwise)."""
        query = f"?token={token}" if token is not None else ""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
            s.sendall(f"GET /pairing{query} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n{extra}"
                      f"Connection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        assert b"content-type: application/json" in head.lower() or status != 200, head
        return status, json.loads(body) if status == 200 else {}

    def refused_upgrade(self, token: str | None, timeout: float = 5.0) -> int:
        """Upgrades `/ws` by hand with `token` (none: no query) and reads until the server hangs
        up: returns the HTTP status of the refusal, after checking that it is a whole HTTP
        response and that nothing — no WebSocket frame — follows its body. An upgrade that is
        accepted (101) fails the check."""
        path = "/ws" + (f"?token={token}" if token is not None else "")
        key = base64.b64encode(os.urandom(16)).decode()
        data = b""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
                       f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            try:
                while chunk := s.recv(65536):
                    data += chunk
            except (TimeoutError, socket.timeout):
                raise AssertionError(f"the server did not hang up after its answer: {data[:200]!r}")
            except ConnectionResetError:
                pass
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        assert lines[0].startswith("HTTP/1.1 "), data[:200]
        status = int(lines[0].split()[1])
        assert status != 101, "upgraded"
        length = [int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")]
        assert length == [len(body)], f"bytes after the refusal's body: {body!r}"
        return status

    # -- WebSocket ----------------------------------------------------------------------
    def ws_url(self, token: str | None = "default", path: str = "/ws") -> str:
        token = self.token if token == "default" else token
        query = f"?token={token}" if token is not None else ""
        return f"ws://127.0.0.1:{self.port}{path}{query}"

    def connect(self, token: str | None = "default", origin: str | None = None, path: str = "/ws", **kw):
        if _CONNECT_TAKES_PROXY:
            kw.setdefault("proxy", None)  # never go through an HTTP proxy from the environment
        return ws_connect(self.ws_url(token, path), origin=origin, compression=None,
                          open_timeout=5, close_timeout=3, ping_interval=None, **kw)

    # -- lifecycle ----------------------------------------------------------------------
    def stop(self, timeout: float = 10.0) -> int:
        if self.returncode is None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
            self.returncode = self.process.wait(timeout=timeout)
        return self.returncode

    def kill(self) -> float:
        """SIGKILL, as a crash or the OOM killer would end it: nothing runs in the server after
        this. Returns the monotonic time of the signal. The clean-exit check of `__exit__` does
        not apply to a killed server."""
        self.process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        self.process.wait(timeout=10)
        self.killed = True
        return killed

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            try:
                code = self.stop()
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                code = None
            if exc_type is None and not self.killed:
                assert code == 0, f"server did not exit 0 on SIGTERM (got {code}): {self.stderr()[-2000:]}"
        finally:
            for f in (self.out, self.err):
                f.close()
                os.unlink(f.name)


# -- protocol helpers -----------------------------------------------------------------------

def stored_devices(server) -> list:
    """The devices in the server's devices.json now ([] when there is none yet)."""
    path = os.path.join(server.state_home, "gesturepad", "devices.json")
    try:
        with open(path) as file:
            return json.load(file).get("devices", [])
    except (OSError, ValueError):
        return []


def wait_stored(server, name: str, within: float = 10.0) -> None:
    """Waits until devices.json holds a device named `name`: the server writes the file from a
    thread of its own, right after the pairing (docs/server.md "The state directory")."""
    assert eventually(lambda: any(d.get("name") == name for d in stored_devices(server)), within), \
        f"{name!r} was not written to devices.json: {stored_devices(server)}"


def eventually(condition, within: float = 10.0) -> bool:
    """Polls `condition` until it holds or `within` seconds have passed (a generous deadline, not
    a wait for something expected at a given time); returns its last answer."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def hello(ws, role: str = "touchpad", width: int = 390, height: int = 844) -> dict:
    ws.send(json.dumps({"type": "hello", "protocol": 1, "role": role, "width": width,
                        "height": height, "dpr": 3, "client": "pytest"}))
    return recv_json(ws)


def recv_json(ws, timeout: float = 3.0) -> dict:
    return json.loads(ws.recv(timeout=timeout))


def collect(ws, duration: float, types: tuple[str, ...] | None = None) -> list[dict]:
    """Every message received within `duration` seconds (optionally only these types)."""
    messages = []
    deadline = time.monotonic() + duration
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            break
        if types is None or message.get("type") in types:
            messages.append(message)
    return messages


def close_code(ws, timeout: float = 5.0) -> int | None:
    """Reads until the server closes; returns the close code it sent."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=deadline - time.monotonic())
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return None
    return None


def load_trace(name: str) -> list[str]:
    return [line for line in (TRACES / name).read_text().splitlines() if line.strip()]


def message_time(line: str) -> float | None:
    """The pacing time of a trace line: its `t`, or the last `t` of a batch."""
    value = json.loads(line)
    items = value if isinstance(value, list) else [value]
    times = [m["t"] for m in items if isinstance(m, dict) and isinstance(m.get("t"), (int, float))]
    return max(times) if times else None


def paced_frames(lines: list[str]) -> list[tuple[float | None, str]]:
    """Trace lines as the page would send them: consecutive messages sharing a `t` (the
    fingers of one step) go out as one batch frame, as the page batches one animation frame.
    Sent one by one, they rely on arriving within the server's 2 ms step hold, which a
    busy test machine does not promise. Returns (pacing time, frame) pairs."""
    frames: list[tuple[float | None, list[str]]] = []
    for line in lines:
        t = message_time(line)
        if t is not None and frames and frames[-1][0] == t:
            frames[-1][1].append(line)
        else:
            frames.append((t, [line]))
    out = []
    for t, group in frames:
        if len(group) == 1:
            out.append((t, group[0]))
            continue
        items = []
        for line in group:
            value = json.loads(line)
            items.extend(value if isinstance(value, list) else [value])
        out.append((t, json.dumps(items, separators=(",", ":"))))
    return out


def send_paced(ws, lines: list[str]) -> tuple[float | None, float]:
    """Sends trace lines at the pace of their `t` (see `paced_frames`); returns the last `t`
    seen and how late (ms) the latest frame went out compared with its schedule (a busy machine)."""
    start = time.monotonic()
    first_t = last_t = None
    lateness = 0.0
    for t, frame in paced_frames(lines):
        if t is not None:
            if first_t is None:
                first_t = t
            due = start + (t - first_t) / 1000.0
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            lateness = max(lateness, (time.monotonic() - due) * 1000.0)
            last_t = t
        ws.send(frame)
    return last_t, lateness


def sinks_available() -> bool:
    """True once the output layer (JSON log, configuration file) is in the binary."""
    result = subprocess.run([str(binary()), "serve", "--help"], capture_output=True, text=True, timeout=30)
    return "--log-json" in result.stdout


def replay(path: Path) -> list[dict]:
    result = subprocess.run([str(binary()), "replay", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


# -- raw WebSocket client, for frames `websockets` will not send ------------------------------

class RawClient:
    """A minimal client: handshake, then hand-made (masked) frames."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None,
                 receive_buffer: int | None = None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:  # before connecting, so the window starts small
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(5)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            try:
                chunk = self.sock.recv(4096)
            except OSError:  # reset, or no answer at all
                break
            if not chunk:
                break
            response += chunk
        head, _, self.buffer = response.partition(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1]) if head else 0

    @staticmethod
    def encode(opcode: int, payload: bytes, fin: bool = True, rsv: int = 0) -> bytes:
        """One masked client frame; `rsv` is the three reserved bits (0–7)."""
        header = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def frame(self, opcode: int, payload: bytes, fin: bool = True, rsv: int = 0) -> None:
        self.sock.sendall(self.encode(opcode, payload, fin, rsv))

    def send_raw(self, data: bytes) -> bool:
        """Sends bytes as they are (frames made with `encode`, all in one write); False when the
        server has already closed the connection."""
        try:
            self.sock.sendall(data)
            return True
        except OSError:
            return False

    def frames(self, timeout: float = 5.0, answer_close: bool = True, until=None) -> list[tuple[int, bytes]]:
        """Every frame (opcode, payload) the server sends until it closes the TCP connection,
        `timeout` passes or a frame satisfies `until(opcode, payload)`. A Close is answered with a
        Close (as a client does), and reading goes on, so anything the server sends after its
        Close shows up too."""
        deadline = time.monotonic() + timeout
        data, frames, answered = self.buffer, [], False
        while True:
            while len(data) >= 2:
                opcode, length = data[0] & 0x0F, data[1] & 0x7F
                offset = 2
                if length == 126:
                    if len(data) < 4:
                        break
                    length, offset = struct.unpack("!H", data[2:4])[0], 4
                elif length == 127:
                    if len(data) < 10:
                        break
                    length, offset = struct.unpack("!Q", data[2:10])[0], 10
                if len(data) < offset + length:
                    break
                frames.append((opcode, data[offset:offset + length]))
                data = data[offset + length:]
                if opcode == 0x8 and answer_close and not answered:
                    answered = True
                    self.send_raw(self.encode(0x8, frames[-1][1][:2]))
                if until is not None and until(*frames[-1]):
                    self.buffer = data
                    return frames
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except (TimeoutError, socket.timeout):
                break
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        self.buffer = data
        return frames

    @staticmethod
    def close_code_of(payload: bytes) -> int | None:
        return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None

    def close_code(self, timeout: float = 5.0) -> int | None:
        """Reads frames until a close frame; returns its code."""
        self.sock.settimeout(timeout)
        data = self.buffer
        try:
            while True:
                while len(data) >= 2:
                    opcode, length = data[0] & 0x0F, data[1] & 0x7F
                    offset = 2
                    if length == 126:
                        length, offset = struct.unpack("!H", data[2:4])[0], 4
                    elif length == 127:
                        length, offset = struct.unpack("!Q", data[2:10])[0], 10
                    if len(data) < offset + length:
                        break
                    payload, data = data[offset:offset + length], data[offset + length:]
                    if opcode == 0x8:
                        return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                chunk = self.sock.recv(65536)
                if not chunk:
                    return None
                data += chunk
        except OSError:
            return None

    def close(self) -> None:
        self.sock.close()


def suite_skip_reason(missing: list[str], required: bool) -> str | None:
    """Why a suite that needs the programs of `missing` (empty: all there) and the built binary
    is skipped; None when it runs. A required suite (`make test`'s GESTUREPAD_REQUIRE_*) is
    never skipped for missing programs: its fixture fails instead."""
    if missing:
        return None if required else "not installed: " + ", ".join(missing) + " (scripts/setup.sh --test)"
    if not binary().exists():
        return f"{binary()} not built (swift build)"
    return None


def private_session_folders(root: Path) -> dict[str, str]:
    """A desktop session's folders under `root` (made here: a 0700 runtime folder, home and the
    XDG folders), as environment variables, with PATH, a UTF-8 locale and Mesa's software
    renderer: the base of tests/gnome's and tests/kde's sessions."""
    runtime = root / "runtime"
    runtime.mkdir(mode=0o700)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": str(runtime),
           "XDG_SESSION_TYPE": "wayland", "LIBGL_ALWAYS_SOFTWARE": "1"}
    for variable, name in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                           ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")):
        (root / name).mkdir()
        env[variable] = str(root / name)
    return env


def activated_pids(runtime: Path, own: set[int]) -> list[int]:
    """Processes with `runtime` as their XDG_RUNTIME_DIR that are not in `own` (nor this one):
    what a private session bus activated (the AT-SPI bus, dconf, portal backends…)."""
    marker = f"XDG_RUNTIME_DIR={runtime}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in own or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def end_activated(runtime: Path, own: set[int], grace: float = 3.0) -> None:
    """Ends what `activated_pids` finds, by PID: SIGTERM, then SIGKILL what is left after
    `grace` seconds (a session's teardown, after its own processes ended)."""
    for pid in activated_pids(runtime, own):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + grace
    while (left := activated_pids(runtime, own)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def skip_under(directory: Path, items: list, reason: str | None) -> None:
    """For a conftest's pytest_collection_modifyitems: marks every test collected under
    `directory` skipped with `reason` (none when `reason` is None)."""
    if not reason:
        return
    import pytest

    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(directory):
            item.add_marker(pytest.mark.skip(reason=reason))


def dbus_config(bus_type: str, listen: str) -> str:
    """A dbus-daemon configuration for a private bus of `bus_type` (session, system) listening
    on `listen`: it only routes (no service directories, nothing is activated), anyone may own
    any name and talk to anyone."""
    return f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>{bus_type}</type>
  <listen>{listen}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def stop_servers(servers: list) -> None:
    """Stops `servers`, newest first (SIGTERM, exit 0 expected); one assertion naming every
    server that did not stop cleanly."""
    errors = []
    for server in reversed(servers):
        try:
            server.__exit__(None, None, None)
        except AssertionError as error:
            errors.append(str(error))
    assert not errors, "; ".join(errors)


def pad_opener():
    """For a `pads` fixture: yields open_pad(server, role="touchpad", **kw) → touch_input.Pad
    (tests/control) and closes every pad it opened afterwards."""
    from touch_input import Pad

    opened = []

    def open_pad(server, role: str = "touchpad", **kw):
        pad = Pad(server, role=role, **kw)
        opened.append(pad)
        return pad

    yield open_pad
    for pad in opened:
        try:
            pad.close()
        except Exception:  # noqa: BLE001 — already closed by the test
            pass
