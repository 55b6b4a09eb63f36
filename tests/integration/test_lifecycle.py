"""Start-up output, signals and shutdown."""
import re
import socket
import signal
import subprocess
import time

import pytest

from testkit import Server, binary, close_code, hello, private_env, sinks_available

needs_sinks = pytest.mark.skipif(not sinks_available(), reason="the JSON log (output layer) has not landed")


def test_startup_prints_url_with_token_and_port(server):
    output = server.stdout()
    assert f"http://127.0.0.1:{server.port}/#token={server.token}" in output
    assert f"port {server.port}" in output


def test_port_zero_prints_the_real_port(page_dir):
    process = subprocess.Popen([str(binary()), "serve", "--host", "127.0.0.1", "--port", "0", "--token", "t0-Secret0123456789abcdefZ", "--control", "off",
                                "--public", str(page_dir), "--no-qr"], stdout=subprocess.PIPE, text=True, env=private_env())
    try:
        line = process.stdout.readline()
        port = int(re.search(r"port (\d+)", line).group(1))
        assert port > 0
        url_line = process.stdout.readline() + process.stdout.readline()
        assert f"http://127.0.0.1:{port}/#token=t0-Secret0123456789abcdefZ" in url_line
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def test_qr_code_is_drawn_at_start(page_dir):
    process = subprocess.Popen([str(binary()), "serve", "--host", "127.0.0.1", "--port", "0", "--token", "t0-Secret0123456789abcdefZ", "--control", "off",
                                "--public", str(page_dir)], stdout=subprocess.PIPE, text=True, env=private_env())
    try:
        lines = [process.stdout.readline() for _ in range(12)]
        assert any("\u2588" in line or "\u2580" in line for line in lines)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def test_sigterm_closes_clients_with_1001_and_exits_0(server):
    with server.connect() as touchpad, server.connect() as observer:
        hello(touchpad)
        hello(observer, role="observer")
        server.process.send_signal(signal.SIGTERM)
        assert close_code(touchpad) == 1001
        assert close_code(observer) == 1001
    assert server.process.wait(timeout=10) == 0


def test_sighup_keeps_serving(server):
    server.process.send_signal(signal.SIGHUP)
    time.sleep(0.2)
    assert server.process.poll() is None
    with server.connect() as ws:
        assert hello(ws)["type"] == "welcome"
    assert server.stop() == 0


def test_missing_public_folder_fails_clearly(tmp_path):
    result = subprocess.run([str(binary()), "serve", "--host", "127.0.0.1", "--port", "0",
                             "--public", str(tmp_path / "nowhere")], capture_output=True, text=True, timeout=10,
                            env=private_env())
    assert result.returncode != 0
    assert "nowhere" in result.stderr


def test_port_in_use_fails_clearly(server):
    result = subprocess.run([str(binary()), "serve", "--host", "127.0.0.1", "--port", str(server.port),
                             "--public", str(server.public)], capture_output=True, text=True, timeout=10,
                            env=private_env())
    assert result.returncode != 0
    assert str(server.port) in result.stderr


def _drag_raw(client):
    import json as _json
    client.frame(0x1, _json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390,
                                   "height": 844}).encode())
    client.frame(0x1, _json.dumps({"type": "down", "id": 1, "x": 100, "y": 400, "t": 1000.0,
                                   "pointerType": "touch"}).encode())
    for step in range(1, 6):
        client.frame(0x1, _json.dumps({"type": "move", "id": 1, "x": 100 + step * 10, "y": 400,
                                       "t": 1000.0 + step * 16, "pointerType": "touch"}).encode())


def _log_entries(path):
    import json as _json
    return [_json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


@needs_sinks
def test_shutdown_cancels_open_contacts_into_the_log_even_if_clients_ignore_the_close(page_dir, tmp_path):
    from testkit import RawClient
    log = tmp_path / "gestures.jsonl"
    with Server(public=page_dir, extra=["--log-json", str(log)]) as server:
        client = RawClient(server.port, f"/ws?token={server.token}")
        assert client.status == 101
        _drag_raw(client)
        time.sleep(0.5)
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=10) == 0
        assert time.monotonic() - started < 5
        client.close()
    entries = _log_entries(log)
    assert any(e["gesture"] == "drag" and e["phase"] == "began" for e in entries)
    assert any(e["gesture"] == "drag" and e["phase"] == "cancelled" for e in entries)
    assert entries[-1]["gesture"] == "end" and entries[-1]["reason"] == "cancel"


@needs_sinks
def test_sighup_reopens_the_json_log(page_dir, tmp_path):
    import json as _json
    log = tmp_path / "gestures.jsonl"
    rotated = tmp_path / "gestures.jsonl.1"
    with Server(public=page_dir, extra=["--log-json", str(log)]) as server:
        with server.connect() as ws:
            hello(ws)
            ws.send(_json.dumps({"type": "down", "id": 1, "x": 10, "y": 10, "t": 100.0, "pointerType": "touch"}))
            ws.send(_json.dumps({"type": "up", "id": 1, "x": 10, "y": 10, "t": 150.0, "pointerType": "touch"}))
            time.sleep(0.5)
            log.rename(rotated)
            server.process.send_signal(signal.SIGHUP)
            time.sleep(0.3)
            ws.send(_json.dumps({"type": "down", "id": 2, "x": 10, "y": 10, "t": 2000.0, "pointerType": "touch"}))
            ws.send(_json.dumps({"type": "up", "id": 2, "x": 10, "y": 10, "t": 2050.0, "pointerType": "touch"}))
            time.sleep(0.5)
        assert server.stop() == 0
    before, after = _log_entries(rotated), _log_entries(log)
    assert any(e["gesture"] == "press" and e["t"] == 100.0 for e in before)
    assert any(e["gesture"] == "press" and e["t"] == 2000.0 for e in after)
    assert not any(e["t"] == 2000.0 for e in before)


def _global_ipv4_addresses() -> list[str]:
    import json as _json
    import shutil
    if not shutil.which("ip"):
        return []
    out = subprocess.run(["ip", "-j", "-4", "addr", "show", "up"], capture_output=True, text=True).stdout
    try:
        return [a["local"] for i in _json.loads(out) for a in i.get("addr_info", [])
                if not a["local"].startswith(("127.", "169.254."))]
    except ValueError:
        return []


def test_all_interfaces_lists_every_lan_address_first(page_dir):
    process = subprocess.Popen([str(binary()), "serve", "--port", "0", "--token", "lan-Secret0123456789abcdefZ", "--public", str(page_dir),
                                "--no-qr", "--control", "off"], stdout=subprocess.PIPE, text=True, env=private_env())
    try:
        lines = []
        while not lines or "Press Ctrl-C" not in lines[-1]:
            lines.append(process.stdout.readline())
        port = int(re.search(r"port (\d+)", lines[0]).group(1))
        urls = [line.strip() for line in lines if line.strip().startswith("http://")]
        assert f"http://127.0.0.1:{port}/#token=lan-Secret0123456789abcdefZ" in urls
        lan = _global_ipv4_addresses()
        for address in lan:
            assert f"http://{address}:{port}/#token=lan-Secret0123456789abcdefZ" in urls
        if lan:
            assert not urls[0].startswith("http://127.")
        # It really listens on them (all interfaces, IPv4 and IPv6 loopback).
        for host in ["127.0.0.1", *lan]:
            with socket.create_connection((host, port), timeout=2):
                pass
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def test_ipv6_loopback_host(page_dir):
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback")
    process = subprocess.Popen([str(binary()), "serve", "--host", "::1", "--port", "0", "--token", "v6-Secret0123456789abcdefZ",
                                "--public", str(page_dir), "--no-qr"], stdout=subprocess.PIPE, text=True, env=private_env())
    try:
        port = int(re.search(r"port (\d+)", process.stdout.readline()).group(1))
        assert f"http://[::1]:{port}/#token=v6-Secret0123456789abcdefZ" in process.stdout.readline() + process.stdout.readline()
        from testkit import _CONNECT_TAKES_PROXY, ws_connect
        extra = {"proxy": None} if _CONNECT_TAKES_PROXY else {}
        with ws_connect(f"ws://[::1]:{port}/ws?token=v6-Secret0123456789abcdefZ", origin=f"http://[::1]:{port}", compression=None,
                        open_timeout=5, **extra) as ws:
            assert hello(ws)["type"] == "welcome"
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
