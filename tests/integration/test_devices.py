"""Paired phones, one by one (docs/server.md "Pairing"): the pairing secret pairs a device, its
key is a token of its own (`/ws?token=KEY`), `gesturepad devices` lists, renames and forgets
them (the running server drops a forgotten device's connections with 4403 at once, and refuses
its key in the handshake from then on), the secret can be rotated without unpairing, and
`--confirm-pairing` holds a new device until it is allowed, denied or out of time. PROTOCOL.md
"Connecting" holds word for word: anything but the secret or a paired device's key — no token,
a wrong secret, a key nobody has, a forgotten key — is refused in the HTTP handshake with 401 /
403, before any WebSocket frame; `GET /pairing` tells a page why. Real server, real WebSocket
clients, the state directory in a temp dir.
"""
import json
import os
import stat
import subprocess

import pytest

from testkit import InvalidStatus, RawClient, Server, binary, eventually, hello, recv_json, wait_stored
from test_pairing import serve, stop

SECRET = "pairing-secret-1-Secret0123456789abcdefZ"
PIXEL = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/120.0.0.0 Mobile Safari/537.36")


def devices(server, *args, check=True):
    """Runs `gesturepad devices ARGS` on the server's state directory; returns the completed run."""
    env = dict(os.environ, XDG_STATE_HOME=server.state_home)
    run = subprocess.run([str(binary()), "devices", *args], capture_output=True, text=True, env=env, timeout=10)
    if check:
        assert run.returncode == 0, run.stderr
    return run


def listed(server):
    return json.loads(devices(server, "list", "--json").stdout)["devices"]


def pair(server, agent=PIXEL, role="touchpad"):
    """Pairs a new device with the secret; returns (open connection, its welcome)."""
    ws = server.connect(token=SECRET, additional_headers={"User-Agent": agent})
    welcome = hello(ws, role=role)
    assert welcome["type"] == "welcome", welcome
    # Written from the server's state thread right after the pairing: `devices` finds it then.
    wait_stored(server, welcome["device"]["name"])
    return ws, welcome


def with_key(server, key):
    """A connection whose token is a device key."""
    return server.connect(token=key)


def closed_with(ws, timeout=5.0):
    """Reads until the server closes; returns its close (code, reason)."""
    import time
    from websockets.exceptions import ConnectionClosed
    deadline = time.monotonic() + timeout
    try:
        while True:
            ws.recv(timeout=max(deadline - time.monotonic(), 0.01))
    except ConnectionClosed as closed:
        return (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (None, "")
    except TimeoutError:
        return (None, "not closed")


def assert_private(server, *keys):
    """No device key appears in what the server printed, nor the secret in its log (the banner
    on stdout prints the pairing link on purpose)."""
    output = server.stdout() + server.stderr()
    for key in keys:
        assert key not in output, "a device key was printed"
    assert SECRET not in server.stderr(), "the pairing secret was logged"


@pytest.fixture
def paired_server():
    # --verbose: the info lines too (connections, `pairing status asked`), so that the privacy
    # checks read every line the server can log.
    with Server(token=SECRET, extra=["--verbose"]) as server:
        yield server


def test_secret_pairs_a_device_whose_key_reconnects_without_it(paired_server):
    """The secret pairs: welcome hands a 256-bit key once; the key, as the token, reconnects as the same device."""
    server = paired_server
    ws, welcome = pair(server)
    device = welcome["device"]
    assert device["name"] == "Pixel 8 · Chrome"
    key = device["key"]
    assert len(key) == 43 and set(key) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    ws.close()
    with with_key(server, key) as again:
        second = hello(again)
        assert second["device"] == {"id": device["id"], "name": "Pixel 8 · Chrome"}, "the key is sent only once"
    path = os.path.join(server.state_home, "gesturepad", "devices.json")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    stored = open(path).read()
    assert key not in stored and device["id"] in stored
    assert_private(server, key)


def test_forget_closes_the_live_connection_with_4403_and_refuses_the_key(paired_server):
    """`gesturepad devices forget NAME`: the running server closes the device's connections with
    4403 at once; from then on its key is refused in the handshake (403, no frame), and
    `GET /pairing` says it was revoked."""
    server = paired_server
    ws, welcome = pair(server)
    key = welcome["device"]["key"]
    observer = with_key(server, key)
    assert hello(observer, role="observer")["type"] == "welcome"
    assert eventually(lambda: [d["connected"] for d in listed(server)] == [True])
    run = devices(server, "forget", "Pixel 8 · Chrome")
    assert "Forgot 'Pixel 8 · Chrome'" in run.stdout and "running server" in run.stdout
    for connection in (ws, observer):
        code, reason = closed_with(connection)
        assert code == 4403 and "removed on the computer" in reason
    assert server.refused_upgrade(key) == 403
    assert server.pairing_status(key) == (200, {"state": "revoked"})
    assert listed(server) == []
    assert_private(server, key)


def test_rename_and_list(paired_server):
    """`devices rename` changes the name the list and the next welcome show; connected now and last seen are listed."""
    server = paired_server
    ws, welcome = pair(server)
    key = welcome["device"]["key"]
    assert eventually(lambda: listed(server)[0]["connected"])
    [entry] = listed(server)
    assert entry["connected"] and entry["lastSeen"] and entry["paired"] and entry["state"] == "paired"
    devices(server, "rename", "pixel 8 · chrome", "Work phone")
    ws.close()
    with with_key(server, key) as again:
        assert hello(again)["device"]["name"] == "Work phone"
    table = devices(server).stdout.splitlines()
    assert table[0].split() == ["NAME", "KIND", "PAIRED", "LAST", "SEEN", "CONNECTED"]
    assert table[1].startswith("Work phone")
    missing = devices(server, "forget", "Nobody", check=False)
    assert missing.returncode == 1 and "no device named 'Nobody'" in missing.stderr


def test_unpair_from_the_page_forgets_the_device(paired_server):
    """The page's `unpair`: its device is forgotten, its connection closed with 4403, its key refused in the handshake."""
    server = paired_server
    ws, welcome = pair(server)
    ws.send(json.dumps({"type": "unpair"}))
    code, reason = closed_with(ws)
    assert code == 4403 and "unpaired" in reason
    assert eventually(lambda: listed(server) == []), listed(server)
    assert server.refused_upgrade(welcome["device"]["key"]) == 403
    assert server.pairing_status(welcome["device"]["key"]) == (200, {"state": "revoked"})


def test_every_wrong_token_is_refused_in_the_handshake(paired_server):
    """PROTOCOL.md "Connecting", word for word: no token is 401; a wrong secret, a key nobody has
    and a forgotten key are 403 — each a whole HTTP response, no WebSocket frame after it —
    and none pairs a device; the secret and a paired key are right tokens."""
    server = paired_server
    ws, welcome = pair(server)
    ws.close()
    kept = welcome["device"]["key"]
    # Another client (another User-Agent): the same one would take its entry back.
    forgotten_ws, forgotten = pair(server, agent=PIXEL.replace("Chrome/120", "Chrome/121"))
    forgotten_ws.close()
    devices(server, "forget", forgotten["device"]["name"])
    assert server.refused_upgrade(None) == 401
    assert server.refused_upgrade("") == 401
    assert server.refused_upgrade("wrong-secret") == 403
    assert server.refused_upgrade("k" * 43) == 403  # the shape of a key, but nobody's
    assert server.refused_upgrade(forgotten["device"]["key"]) == 403
    assert [d["id"] for d in listed(server)] == [welcome["device"]["id"]]
    with with_key(server, kept) as again:
        assert hello(again)["device"]["id"] == welcome["device"]["id"]
    assert "wrong access token" in server.stderr() and "forgotten device" in server.stderr()
    assert_private(server, kept, forgotten["device"]["key"])


def test_device_is_not_a_credential(paired_server):
    """One parameter, one rule: a key passed as `?device=` is no token (401), nor does it change
    what the secret does beside it (a new device is paired)."""
    server = paired_server
    ws, welcome = pair(server)
    ws.close()
    key = welcome["device"]["key"]
    client = RawClient(server.port, f"/ws?device={key}")
    assert client.status == 401
    client.close()
    with server.connect(token=None, path=f"/ws?token={SECRET}&device={key}") as other:
        assert hello(other)["device"]["id"] != welcome["device"]["id"]


def test_pairing_status_tells_where_a_token_stands(paired_server):
    """`GET /pairing?token=`: paired for a device's key, pairing for the secret, revoked for a
    forgotten key, unknown for anything else — only the state, never a name or an id — and
    nothing of the tokens in the log."""
    server = paired_server
    ws, welcome = pair(server)
    key = welcome["device"]["key"]
    assert server.pairing_status(key) == (200, {"state": "paired"})
    assert server.pairing_status(SECRET) == (200, {"state": "pairing", "confirm": False})
    assert server.pairing_status("k" * 43) == (200, {"state": "unknown"})
    assert server.pairing_status("wrong") == (200, {"state": "unknown"})
    assert server.pairing_status(None) == (200, {"state": "unknown"})
    assert server.pairing_status(SECRET, {"Origin": "http://evil.example"})[0] == 403
    devices(server, "forget", "Pixel 8 · Chrome")
    assert closed_with(ws)[0] == 4403
    assert server.pairing_status(key) == (200, {"state": "revoked"})
    status, headers, body = server.get(f"/pairing?token={key}")
    assert status == 200 and headers["cache-control"] == "no-store" and json.loads(body) == {"state": "revoked"}
    assert "pairing status asked" in server.stderr()
    assert_private(server, key)


def test_pairing_status_without_authentication_is_open():
    """--no-auth: every token (or none) connects, and `GET /pairing` says `open` — it counts no refusal."""
    with Server(token=None, extra=["--no-auth"]) as server:
        for token in (None, "anything", "k" * 43) * 4:
            assert server.pairing_status(token) == (200, {"state": "open"})
        with server.connect(token=None) as ws:
            assert "device" not in hello(ws)


def test_wrong_tokens_are_rate_limited_upgrades_and_status_alike(paired_server):
    """Unknown keys count like wrong secrets, and a status that refuses a token costs a try too:
    after ten refusals from one address, the upgrade with the right secret and the status are 429."""
    server = paired_server
    for i in range(5):
        assert server.refused_upgrade(f"{'k' * 42}{i}") == 403
        assert server.pairing_status(f"{'k' * 42}{i}") == (200, {"state": "unknown"})
    assert server.pairing_status(SECRET)[0] == 429
    client = RawClient(server.port, f"/ws?token={SECRET}")
    assert client.status == 429
    client.close()


def test_rotating_the_secret_keeps_paired_devices(tmp_path):
    """--new-token: paired devices still connect, the old secret pairs no one, the new one does; --forget-devices unpairs all."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    first, port, old, _ = serve(tmp_path)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws?token={old}", proxy=None) as ws:
            key = hello(ws)["device"]["key"]
    finally:
        stop(first)
    second, port, new, banner = serve(tmp_path, "--new-token")
    try:
        assert new != old and "The pairing secret is new" in banner
        with connect(f"ws://127.0.0.1:{port}/ws?token={key}", proxy=None) as ws:
            assert "key" not in hello(ws)["device"]
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}/ws?token={old}", proxy=None)
        assert refused.value.response.status_code == 403
        # A second phone (its own User-Agent: the first client pairing again takes its entry).
        with connect(f"ws://127.0.0.1:{port}/ws?token={new}", proxy=None,
                     additional_headers={"User-Agent": "second-phone"}) as ws:
            assert hello(ws)["device"]["key"] != key
    finally:
        stop(second)
    third, port, newest, _ = serve(tmp_path, "--new-token", "--forget-devices")
    try:
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}/ws?token={key}", proxy=None)
        assert refused.value.response.status_code == 403
    finally:
        stop(third)
    stored = json.loads((tmp_path / "gesturepad" / "devices.json").read_text())
    assert stored["devices"] == [] and len(stored["forgottenKeys"]) == 2  # both phones paired above


def confirming(timeout="30"):
    return Server(token=SECRET, extra=["--confirm-pairing", "--pairing-timeout", timeout])


def wait_request(server):
    """Connects with the secret under --confirm-pairing: the page is told it waits, its hello is not answered."""
    ws = server.connect(token=SECRET, additional_headers={"User-Agent": PIXEL})
    notice = recv_json(ws)
    assert notice == {"type": "pairing", "state": "waiting", "device": notice["device"]}
    assert notice["device"]["name"] == "Pixel 8 · Chrome" and "key" not in notice["device"]
    wait_stored(server, "Pixel 8 · Chrome")
    ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}))
    return ws


def test_confirm_pairing_allow():
    """--confirm-pairing: the new device waits (listed as waiting) until `devices allow`; then its hello is answered with its key."""
    with confirming() as server:
        ws = wait_request(server)
        [waiting] = listed(server)
        assert waiting["state"] == "waiting"
        assert "waits to pair: gesturepad devices allow 'Pixel 8 · Chrome'" in devices(server).stdout
        assert "asks to pair" in server.stderr()
        devices(server, "allow", "Pixel 8 · Chrome")
        welcome = recv_json(ws, timeout=5)
        assert welcome["type"] == "welcome" and len(welcome["device"]["key"]) == 43
        ws.close()
        with with_key(server, welcome["device"]["key"]) as again:
            assert hello(again)["type"] == "welcome"
        assert eventually(lambda: [d["state"] for d in listed(server)] == ["paired"]), listed(server)


def test_confirm_pairing_deny():
    """`devices deny`: the waiting device is refused with 4401 and not listed."""
    with confirming() as server:
        ws = wait_request(server)
        devices(server, "deny", "Pixel 8 · Chrome")
        code, reason = closed_with(ws)
        assert code == 4401 and "declined" in reason
        assert eventually(lambda: listed(server) == []), listed(server)


def test_confirm_pairing_times_out():
    """Not accepted within --pairing-timeout: refused with 4401, and nothing is left waiting."""
    with confirming(timeout="0.3") as server:
        ws = wait_request(server)
        code, reason = closed_with(ws, timeout=10)
        assert code == 4401 and "within 1 s" in reason
        assert eventually(lambda: listed(server) == []), listed(server)
        assert devices(server, "allow", "Pixel 8 · Chrome", check=False).returncode == 1


def test_without_a_notification_server_a_terminal_line(tmp_path):
    """No session bus: pairing works, the terminal says who paired and that no notification could be shown."""
    env = {"DBUS_SESSION_BUS_ADDRESS": f"unix:path={tmp_path}/no-bus"}
    with Server(token=SECRET, extra=["--notify", "pairing"], env=env) as server:
        ws, welcome = pair(server)
        assert welcome["device"]["key"]
        ws.close()
        log = collect_stderr(server, "no desktop notifications")
        assert "paired a new device: Pixel 8 · Chrome" in log
        assert_private(server, welcome["device"]["key"])


def collect_stderr(server, needle, timeout=5.0):
    """The server's stderr once it holds `needle` (the notifier thread says so shortly after)."""
    import time
    deadline = time.monotonic() + timeout
    text = server.stderr()
    while needle not in text and time.monotonic() < deadline:
        time.sleep(0.05)
        text = server.stderr()
    assert needle in text, text
    return text


def test_ca_and_trust_stay_public_with_pairing():
    """With pairing (and --tls), /ca.crt and /trust need no token; /ws without one is 401."""
    import ssl
    import urllib.request
    unverified = ssl._create_unverified_context()
    with Server(token=SECRET, extra=["--tls"]) as server:
        for path in ("/ca.crt", "/trust"):
            with urllib.request.urlopen(f"https://127.0.0.1:{server.port}{path}", context=unverified, timeout=5) as r:
                assert r.status == 200 and r.read()
        from websockets.exceptions import InvalidStatus
        from websockets.sync.client import connect
        with pytest.raises(InvalidStatus) as refused:
            connect(f"wss://127.0.0.1:{server.port}/ws", ssl=unverified, proxy=None)
        assert refused.value.response.status_code == 401


def test_confirm_pairing_from_the_configuration_file(tmp_path):
    """server.pairing in the configuration file: confirm and a short timeout, as the flags would."""
    config = tmp_path / "config.yaml"
    config.write_text("server:\n  pairing:\n    confirm: true\n    timeout: 0.2\n    notify: off\n")
    with Server(token=SECRET, extra=["--config", str(config)]) as server:
        ws = wait_request(server)
        code, reason = closed_with(ws, timeout=10)
        assert code == 4401 and "within 1 s" in reason
        assert "A new phone waits until you accept it" in server.stdout()


def test_an_observer_is_a_device_too(paired_server):
    """An observer needs a right token like a touchpad: without one it is refused 401; with the
    secret it is paired (and listed); with its key it watches; forgotten, its key is 403."""
    from websockets.exceptions import InvalidStatus
    server = paired_server
    with pytest.raises(InvalidStatus) as refused:
        server.connect(token=None)
    assert refused.value.response.status_code == 401
    ws, welcome = pair(server, agent="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                                     "Chrome/124.0.0.0 Safari/537.36", role="observer")
    assert welcome["control"]["active"] is False and welcome["device"]["name"] == "Linux · Chrome"
    ws.close()
    with with_key(server, welcome["device"]["key"]) as again:
        assert hello(again, role="observer")["device"]["id"] == welcome["device"]["id"]
    assert [d["name"] for d in listed(server)] == ["Linux · Chrome"]
    devices(server, "forget", "Linux · Chrome")
    assert server.refused_upgrade(welcome["device"]["key"]) == 403
