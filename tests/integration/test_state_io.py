"""No disk I/O on the service thread (docs/server.md "The state directory"): while paired phones
connect and disconnect, and while the pairing status is asked, the thread that serves every
connection makes no file-system call — no open, stat, lock, sync or rename. devices.json and
server.json are written by the server's state thread, and `lastSeen` is written at the latest
when the server stops. Checked with strace on the real server."""
import json
import os
import shutil
import signal
import subprocess

import pytest

from testkit import Server, eventually, hello, wait_stored

SECRET = "state-io-secret-Secret0123456789abcdefZ"
# Every call that names a file, and the ones that lock or sync one.
TRACED = "trace=%file,flock,fsync,fdatasync,syncfs"

# make test requires it (GESTUREPAD_REQUIRE_PACKAGING marks the full run): a missing strace fails there.
REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_PACKAGING") == "1"
pytestmark = pytest.mark.skipif(shutil.which("strace") is None and not REQUIRED,
                                reason="strace is needed (setup.sh --test installs it)")


def attach(pid: int, out: str) -> subprocess.Popen:
    tracer = subprocess.Popen(["strace", "-f", "-qq", "-e", TRACED, "-p", str(pid), "-o", out],
                              stderr=subprocess.PIPE)
    def traced():
        with open(f"/proc/{pid}/status") as status:
            return "TracerPid:\t0\n" not in status.read()
    if not eventually(traced, 10):
        tracer.kill()
        pytest.fail(f"strace could not attach: {tracer.stderr.read().decode(errors='replace')}")
    return tracer


def calls_by_thread(out: str) -> dict[int, list[str]]:
    calls: dict[int, list[str]] = {}
    with open(out) as trace:
        for line in trace:
            tid, _, call = line.partition(" ")
            if tid.isdigit() and not call.startswith("<..."):
                calls.setdefault(int(tid), []).append(call.strip())
    return calls


def devices_file(state: str) -> str:
    return os.path.join(state, "gesturepad", "devices.json")


def test_the_service_thread_touches_no_file_while_phones_come_and_go(tmp_path):
    state = str(tmp_path / "state")
    with Server(token=SECRET, env={"XDG_STATE_HOME": state}) as first:
        ws = first.connect(token=SECRET)
        welcome = hello(ws)
        key, name = welcome["device"]["key"], welcome["device"]["name"]
        ws.close()
    # A last-seen time long ago, so the one written at the next stop is surely newer.
    stored = json.load(open(devices_file(state)))
    stored["devices"][0]["lastSeen"] = "2020-01-01T00:00:00Z"
    with open(devices_file(state), "w") as file:
        json.dump(stored, file)

    with Server(token=SECRET, extra=["--verbose"], env={"XDG_STATE_HOME": state}) as server:
        pid = server.process.pid
        out = str(tmp_path / "trace")
        tracer = attach(pid, out)
        try:
            for _ in range(20):
                with server.connect(token=key) as again:
                    assert hello(again)["device"]["name"] == name
                assert server.pairing_status(key)[0] == 200
            # The state thread publishes who is connected: server.json says none again.
            record = os.path.join(state, "gesturepad", "server.json")
            assert eventually(lambda: json.load(open(record)).get("connectedDevices") == [])
        finally:
            tracer.send_signal(signal.SIGINT)
            tracer.wait(timeout=10)
        calls = calls_by_thread(out)
        service = calls.get(pid, [])
        assert service == [], f"the service thread made file-system calls: {service[:10]}"
        others = [call for tid, list_ in calls.items() if tid != pid for call in list_]
        assert any("server.json" in call and call.startswith("renameat") for call in others), \
            "the trace must show the state thread writing server.json (else it proves nothing)"
        assert not any("devices.json" in call and call.startswith("renameat") for call in others), \
            "lastSeen alone is not written at every connection"
        assert json.load(open(devices_file(state)))["devices"][0]["lastSeen"] == "2020-01-01T00:00:00Z"
        assert server.stop() == 0
    # At the stop, what waited (the last connection's lastSeen) is written.
    [device] = json.load(open(devices_file(state)))["devices"]
    assert device["name"] == name and device["lastSeen"] > "2020-01-01T00:00:00Z"
