"""A gate between the real page and the real server: a loopback port relaying each connection
while open, holding new ones while closed, cutting them all at once, or failing the next
WebSocket upgrades as a port with nothing listening yet would."""
from __future__ import annotations

import socket
import threading
import time

LIVE = "window.gesturepad && window.gesturepad.status === 'live' && !!window.gesturepad.device"


class Gate:
    """A loopback port relaying each connection to `target` — while open. Connections made
    while it is closed wait (their upgrade unanswered) until it opens; `cut()` ends every
    relayed connection; `drop_upgrades(n)` ends the next `n` WebSocket upgrades unanswered, as
    a port with nothing listening would fail them, while plain HTTP goes through."""

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
        self.upgrades_to_drop = 0
        self.dropped = 0
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
        if self.upgrades_to_drop and self._is_upgrade(client):
            with self.lock:
                drop = self.upgrades_to_drop > 0
                self.upgrades_to_drop -= drop
                self.dropped += drop
            if drop:
                client.close()
                return
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target))
        except OSError:
            client.close()
            return
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
        pipe(client, upstream)
        if held:
            self.held_ended.set()

    @staticmethod
    def _is_upgrade(client: socket.socket) -> bool:
        """Whether the request waiting on `client` asks for a WebSocket (read without taking it)."""
        head, deadline = b"", time.monotonic() + 5
        while b"\r\n\r\n" not in head and len(head) < 16384 and time.monotonic() < deadline:
            try:
                head = client.recv(16384, socket.MSG_PEEK)  # all that waited, taken again later
            except OSError:
                return False
            if not head:
                return False
            if b"\r\n\r\n" not in head:
                time.sleep(0.005)  # the rest of the head is on its way
        return b"upgrade: websocket" in head.lower()

    def drop_upgrades(self, count: int) -> None:
        with self.lock:
            self.upgrades_to_drop = count

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


def open_paired(browser, gate: Gate, token: str):
    """A phone's page opened through `gate` with the pairing link of `token`, live and paired."""
    page = browser.new_page()
    page.phone()
    page.navigate(f"http://127.0.0.1:{gate.port}/#token={token}")
    page.wait_for(LIVE, 8)
    return page


def wait_until(predicate, within: float, what: str) -> None:
    """Polls `predicate` until it holds; fails naming `what` after `within` s."""
    deadline = time.monotonic() + within
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
