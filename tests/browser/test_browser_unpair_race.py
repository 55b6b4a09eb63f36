"""The unpair-while-reconnecting race (issue 33), with the real page and the real server: a
paired page whose connection dropped has its next socket in flight — a gate between them holds
the upgrade — when the person taps "Unpair this phone". Then the gate opens. The in-flight
socket must not bring the phone back: its welcome would store the device key again and go
live, though the server never heard the unpair. The page ends that socket at the unpair
(docs/page.md "The connection's life"), so it stays unpaired, its key forgotten, not live."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from browser_harness import Server, no_console_errors

LIVE = "window.gesturepad && window.gesturepad.status === 'live' && !!window.gesturepad.device"
UNPAIR_BUTTON = "document.querySelector('#sheet [data-action=\"unpair\"]')"


class Gate:
    """A loopback port relaying each connection to `target` — while open. Connections made
    while it is closed wait (their upgrade unanswered) until it opens; `cut()` ends every
    relayed connection."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.opened = threading.Event()
        self.opened.set()
        self.lock = threading.Lock()
        self.clients: list[socket.socket] = []
        self.held = 0            # connections accepted while closed
        self.held_ended = threading.Event()  # a held connection's page side has ended
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            held = not self.opened.is_set()
            with self.lock:
                self.clients.append(client)
                self.held += held
            threading.Thread(target=self._serve, args=(client, held), daemon=True).start()

    def _serve(self, client: socket.socket, held: bool) -> None:
        self.opened.wait()
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target))
        except OSError:
            client.close()
            return
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
        pipe(client, upstream)
        if held:
            self.held_ended.set()

    def close_gate(self) -> None:
        self.opened.clear()

    def open_gate(self) -> None:
        self.opened.set()

    def cut(self) -> None:
        with self.lock:
            clients, self.clients = self.clients, []
        for client in clients:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.opened.set()
        self.listener.close()
        self.cut()


def pipe(source: socket.socket, sink: socket.socket) -> None:
    """Copies `source` to `sink` until `source` ends; then ends `sink`."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    for s in (sink, source):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


@pytest.fixture
def gated():
    server = Server(token="unpair-race-secret-Secret0123456789abcdefZ", log_name="browser-unpair-race.log")
    server.start()
    gate = Gate(server.port)
    try:
        yield server, gate
    finally:
        gate.close()
        server.stop()


def test_an_unpair_while_reconnecting_is_not_undone_by_the_socket_in_flight(browser, gated):
    server, gate = gated
    page = browser.new_page()
    page.phone()
    try:
        page.navigate(f"http://127.0.0.1:{gate.port}/#token={server.token}")
        page.wait_for(LIVE, 8)
        assert len(page.eval("localStorage.getItem('gesturepad.deviceKey')") or "") == 43
        welcomes = page.eval("window.gesturepad.received.filter(function (m) { return m.type === 'welcome'; }).length")
        # The connection drops; the next attempt's upgrade waits at the closed gate.
        gate.close_gate()
        gate.cut()
        page.wait_for("window.gesturepad.status === 'reconnecting'", 5)
        wait_until(lambda: gate.held >= 1, 8, "the page's next socket to reach the gate")
        # "Unpair this phone", two taps.
        page.eval(f"{UNPAIR_BUTTON}.click()")
        page.eval(f"{UNPAIR_BUTTON}.click()")
        page.wait_for("window.gesturepad.status === 'refused'", 5)
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") is None
        # The in-flight socket's upgrade goes through now: the page must have let it go.
        gate.open_gate()
        wait_until(lambda: gate.held_ended.is_set() or page.state()["status"] == "live", 8,
                   "the held socket to end, or the page to go live")
        state = page.state()
        assert state["status"] == "refused", state["status"]
        assert "not paired any more" in state["detail"]
        assert len([m for m in state["received"] if m["type"] == "welcome"]) == welcomes
        assert state["device"] is None
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") is None
        assert page.eval(f"{UNPAIR_BUTTON}.disabled") is True
        assert page.eval("document.getElementById('device-name').textContent") == "not paired"
        no_console_errors(page)
    finally:
        page.close()


def wait_until(predicate, within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
