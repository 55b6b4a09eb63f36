"""Paired phones, one by one (docs/server.md "Pairing"): the pairing secret pairs a device, its
key reconnects it without the secret, `gesturepad devices` lists, renames and forgets them
(the running server drops a forgotten device's connections with 4403 at once), the secret can
be rotated without unpairing, and `--confirm-pairing` holds a new device until it is allowed,
denied or out of time. Real server, real WebSocket clients, the state directory in a temp dir.
"""
import json
import os
import stat
import subprocess

import pytest

from testkit import RawClient, Server, binary, close_code, collect, hello, recv_json
from test_pairing import serve, stop

SECRET = "pairing-secret-1"
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
    return ws, welcome


def with_key(server, key, token=None):
    query = f"device={key}" + (f"&token={token}" if token else "")
    return server.connect(token=None, path=f"/ws?{query}")


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
    with Server(token=SECRET) as server:
        yield server


def test_secret_pairs_a_device_whose_key_reconnects_without_it(paired_server):
    """The secret pairs: welcome hands a 256-bit key once; the key alone reconnects as the same device."""
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
    """`gesturepad devices forget NAME`: the running server closes the device's connections with 4403 at once, and its key opens nothing."""
    server = paired_server
    ws, welcome = pair(server)
    key = welcome["device"]["key"]
    observer = with_key(server, key)
    assert hello(observer, role="observer")["type"] == "welcome"
    assert [d["connected"] for d in listed(server)] == [True]
    run = devices(server, "forget", "Pixel 8 · Chrome")
    assert "Forgot 'Pixel 8 · Chrome'" in run.stdout and "running server" in run.stdout
    for connection in (ws, observer):
        code, reason = closed_with(connection)
        assert code == 4403 and "removed on the computer" in reason
    refused = with_key(server, key)
    assert close_code(refused) == 4403
    assert listed(server) == []
    assert_private(server, key)


def test_rename_and_list(paired_server):
    """`devices rename` changes the name the list and the next welcome show; connected now and last seen are listed."""
    server = paired_server
    ws, welcome = pair(server)
    key = welcome["device"]["key"]
    [entry] = listed(server)
    assert entry["connected"] and entry["lastSeen"] and entry["paired"] and entry["state"] == "paired"
    devices(server, "rename", "pixel 8 · chrome", "Work phone")
    ws.close()
    with with_key(server, key) as again:
        assert hello(again)["device"]["name"] == "Work phone"
    table = devices(server).stdout.splitlines()
    assert table[0].split() == ["NAME", "PAIRED", "LAST", "SEEN", "CONNECTED"]
    assert table[1].startswith("Work phone")
    missing = devices(server, "forget", "Nobody", check=False)
    assert missing.returncode == 1 and "no device named 'Nobody'" in missing.stderr


def test_unpair_from_the_page_forgets_the_device(paired_server):
    """The page's `unpair`: its device is forgotten, its connection closed with 4403, its key refused."""
    server = paired_server
    ws, welcome = pair(server)
    ws.send(json.dumps({"type": "unpair"}))
    code, reason = closed_with(ws)
    assert code == 4403 and "unpaired" in reason
    assert listed(server) == []
    assert close_code(with_key(server, welcome["device"]["key"])) == 4403


def test_unknown_keys_are_rate_limited_like_wrong_secrets(paired_server):
    """Ten unknown keys from one address are told 4403; the eleventh attempt is 429, even with the right secret."""
    server = paired_server
    for i in range(10):
        client = RawClient(server.port, f"/ws?device={'k' * 42}{i % 10}")
        assert client.status == 101
        client.close()
    client = RawClient(server.port, f"/ws?token={SECRET}")
    assert client.status == 429
    client.close()


def test_a_wrong_secret_with_a_key_is_refused_403(paired_server):
    """An unknown key with a wrong secret is a wrong secret: refused in the handshake, nobody paired."""
    client = RawClient(paired_server.port, f"/ws?device={'k' * 43}&token=wrong")
    assert client.status == 403
    client.close()
    assert listed(paired_server) == []


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
        with connect(f"ws://127.0.0.1:{port}/ws?device={key}", proxy=None) as ws:
            assert "key" not in hello(ws)["device"]
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}/ws?token={old}", proxy=None)
        assert refused.value.response.status_code == 403
        with connect(f"ws://127.0.0.1:{port}/ws?token={new}", proxy=None) as ws:
            assert hello(ws)["device"]["key"] != key
    finally:
        stop(second)
    third, port, newest, _ = serve(tmp_path, "--new-token", "--forget-devices")
    try:
        with connect(f"ws://127.0.0.1:{port}/ws?device={key}", proxy=None) as ws:
            assert close_code(ws) == 4403
    finally:
        stop(third)
    assert json.loads((tmp_path / "gesturepad" / "devices.json").read_text())["devices"] == []


def confirming(timeout="30"):
    return Server(token=SECRET, extra=["--confirm-pairing", "--pairing-timeout", timeout])


def wait_request(server):
    """Connects with the secret under --confirm-pairing: the page is told it waits, its hello is not answered."""
    ws = server.connect(token=SECRET, additional_headers={"User-Agent": PIXEL})
    notice = recv_json(ws)
    assert notice == {"type": "pairing", "state": "waiting", "device": notice["device"]}
    assert notice["device"]["name"] == "Pixel 8 · Chrome" and "key" not in notice["device"]
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
        assert [d["state"] for d in listed(server)] == ["paired"]


def test_confirm_pairing_deny():
    """`devices deny`: the waiting device is refused with 4401 and not listed."""
    with confirming() as server:
        ws = wait_request(server)
        devices(server, "deny", "Pixel 8 · Chrome")
        code, reason = closed_with(ws)
        assert code == 4401 and "declined" in reason
        assert listed(server) == []


def test_confirm_pairing_times_out():
    """Not accepted within --pairing-timeout: refused with 4401, and nothing is left waiting."""
    with confirming(timeout="0.3") as server:
        ws = wait_request(server)
        code, reason = closed_with(ws, timeout=10)
        assert code == 4401 and "within 1 s" in reason
        assert listed(server) == []
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
    """With pairing (and --tls), /ca.crt and /trust need neither secret nor key; /ws without either is 401."""
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
    """An observer needs a key or the secret like a touchpad: without either it is refused 401;
    with the secret it is paired (and listed); with its key it watches without the secret."""
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
