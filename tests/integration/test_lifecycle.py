"""Start-up output, signals and shutdown."""
import re
import signal
import subprocess
import time

from testkit import Server, binary, close_code, hello


def test_startup_prints_url_with_token_and_port(server):
    output = server.stdout()
    assert f"http://127.0.0.1:{server.port}/#token={server.token}" in output
    assert f"port {server.port}" in output


def test_port_zero_prints_the_real_port(page_dir):
    process = subprocess.Popen([str(binary()), "serve", "--host", "127.0.0.1", "--port", "0", "--token", "t0",
                                "--public", str(page_dir), "--no-qr"], stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        port = int(re.search(r"port (\d+)", line).group(1))
        assert port > 0
        url_line = process.stdout.readline() + process.stdout.readline()
        assert f"http://127.0.0.1:{port}/#token=t0" in url_line
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def test_qr_code_is_drawn_at_start(page_dir):
    process = subprocess.Popen([str(binary()), "serve", "--host", "127.0.0.1", "--port", "0", "--token", "t0",
                                "--public", str(page_dir)], stdout=subprocess.PIPE, text=True)
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
                             "--public", str(tmp_path / "nowhere")], capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert "nowhere" in result.stderr


def test_port_in_use_fails_clearly(server):
    result = subprocess.run([str(binary()), "serve", "--host", "127.0.0.1", "--port", str(server.port),
                             "--public", str(server.public)], capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert str(server.port) in result.stderr
