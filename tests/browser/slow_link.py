"""A slow link for the browser tests: a loopback port that relays each connection to the server,
what the page sends at a few kilobytes a second (what the server sends back at full speed), as a
phone's uplink on a poor Wi-Fi. Threads and plain sockets, as the unpair race's gate."""

from __future__ import annotations

import socket
import threading
import time

# The relay's own buffering is kept small (its receive buffer, the bytes it reads at a time), so
# what it relays reaches the server at the rate set, not in bursts.
RECEIVE_BUFFER = 4096
TICK_S = 0.02


class SlowLink:
    """Relays every connection made to `port` to the server's port `target`. Page → server goes
    at `rate` bytes a second once set (None: full speed); server → page always at full speed."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.rate: float | None = None
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)  # inherited
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                return
            with self.lock:
                self.sockets += [client, upstream]
            threading.Thread(target=self._uplink, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._downlink, args=(upstream, client), daemon=True).start()

    def _uplink(self, client: socket.socket, upstream: socket.socket) -> None:
        try:
            while True:
                rate = self.rate
                data = client.recv(65536 if rate is None else max(1, int(rate * TICK_S)))
                if not data:
                    break
                upstream.sendall(data)
                if rate is not None:
                    time.sleep(len(data) / rate)
        except OSError:
            pass
        end(upstream)

    def _downlink(self, upstream: socket.socket, client: socket.socket) -> None:
        try:
            while data := upstream.recv(65536):
                client.sendall(data)
        except OSError:
            pass
        end(client)

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            sockets, self.sockets = self.sockets, []
        for s in sockets:
            end(s)
            s.close()


def end(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
