"""A fake `org.freedesktop.portal.Desktop` offering `org.freedesktop.portal.RemoteDesktop`, for
tests/portal: it answers CreateSession / SelectDevices / Start like xdg-desktop-portal does (each
call returns a Request object path at once; the answer follows as that Request's `Response`
signal), keeps Session objects (`Close`, and the `Closed` signal on demand) and records every
call it receives, one JSON object per line, in the log file; a RemoteDesktop call with `at`,
its arrival on time.monotonic()'s clock (CLOCK_MONOTONIC, the same in every process here).

    python fake_portal.py --log FILE [--version 2] [--devices 7] [--start-response 0]
                          [--granted 3] [--no-restore-token] [--no-remote-desktop]
                          [--forward-delay MS] [--answer-after MS]

`--forward-delay MS` behaves like xdg-desktop-portal, which handles every method call in a
thread of its own: each Notify call is passed on to the desktop (recorded as `delivered`) after
a random delay of up to MS ms, and answered once passed on — so calls sent back to back can be
delivered in another order, and calls each sent after the answer to the previous one cannot.

Standard input takes commands, one per line: `close` (the desktop ends every started session:
`Session.Closed`), `start-response N` (how later Start calls are answered), `vanish` (the portal
leaves the bus, as when it restarts: its sessions are gone, without a signal), `return` (it
owns the name again), `quit`.
Prints `ready` on standard output once it owns the name.

Built on dbus-fast's low-level message handler, so that it sees each caller's unique name
(the Request path contains it) and answers exactly what the portal documentation describes.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio import MessageBus

SERVICE = "org.freedesktop.portal.Desktop"
ROOT = "/org/freedesktop/portal/desktop"
REMOTE_DESKTOP = "org.freedesktop.portal.RemoteDesktop"
REQUEST = "org.freedesktop.portal.Request"
SESSION = "org.freedesktop.portal.Session"
PROPERTIES = "org.freedesktop.DBus.Properties"


def plain(value):
    """D-Bus values as JSON: variants unwrapped, dicts and lists kept."""
    if isinstance(value, Variant):
        return plain(value.value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


class FakePortal:
    def __init__(self, bus: MessageBus, options: argparse.Namespace, log):
        self.bus = bus
        self.options = options
        self.log = log
        self.start_response = options.start_response
        self.sessions: dict[str, dict] = {}  # path → {"started": bool, "closed": bool, "persist": int}
        self.tokens_issued = 0

    def record(self, entry: dict) -> None:
        self.log.write(json.dumps(entry) + "\n")
        self.log.flush()

    # -- dispatch --------------------------------------------------------------------------------
    def handle(self, msg: Message):
        if msg.message_type != MessageType.METHOD_CALL:
            return None
        if msg.interface == PROPERTIES and msg.path == ROOT:
            return self.properties(msg)
        if msg.interface == REMOTE_DESKTOP and msg.path == ROOT:
            if self.options.no_remote_desktop:
                return Message.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "No such interface")
            self.record({"call": msg.member, "sender": msg.sender, "args": plain(msg.body), "at": time.monotonic()})
            return self.remote_desktop(msg)
        if msg.interface == SESSION and msg.member == "Close":
            self.record({"call": "Session.Close", "path": msg.path})
            session = self.sessions.get(msg.path)
            if session and session.get("refused"):
                # xdg-desktop-portal removed the session when Start was refused: its object is gone.
                return Message.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "Object does not exist")
            if session:
                session["closed"] = True
            return Message.new_method_return(msg)
        return None

    def properties(self, msg: Message):
        if msg.member != "Get" or msg.body[0] != REMOTE_DESKTOP or self.options.no_remote_desktop:
            return Message.new_error(msg, "org.freedesktop.DBus.Error.InvalidArgs", "No such interface or property")
        values = {"version": self.options.version, "AvailableDeviceTypes": self.options.devices}
        if msg.body[1] not in values:
            return Message.new_error(msg, "org.freedesktop.DBus.Error.InvalidArgs", "No such property")
        self.record({"call": "Properties.Get", "args": plain(msg.body)})
        return Message.new_method_return(msg, "v", [Variant("u", values[msg.body[1]])])

    def remote_desktop(self, msg: Message):
        member, body = msg.member, msg.body
        sender = msg.sender.lstrip(":").replace(".", "_")
        if member == "CreateSession":
            options = body[0]
            request = f"{ROOT}/request/{sender}/{options['handle_token'].value}"
            session = f"{ROOT}/session/{sender}/{options['session_handle_token'].value}"
            self.sessions[session] = {"started": False, "closed": False, "persist": 0}
            # xdg-desktop-portal sends the session handle as a string, though documented as `o`.
            self.answer(request, 0, {"session_handle": Variant("s", session)})
            return Message.new_method_return(msg, "o", [request])
        if member == "SelectDevices":
            session, options = body
            request = f"{ROOT}/request/{sender}/{options['handle_token'].value}"
            if session in self.sessions:
                persist = options.get("persist_mode")
                self.sessions[session]["persist"] = persist.value if persist else 0
            self.answer(request, 0 if session in self.sessions else 2, {})
            return Message.new_method_return(msg, "o", [request])
        if member == "Start":
            session, _parent, options = body
            request = f"{ROOT}/request/{sender}/{options['handle_token'].value}"
            state = self.sessions.get(session)
            results = {}
            code = self.start_response if state else 2
            if code == 0 and state:
                state["started"] = True
                results["devices"] = Variant("u", self.options.granted)
                if self.options.version >= 2 and state["persist"] == 2 and not self.options.no_restore_token:
                    self.tokens_issued += 1
                    results["restore_token"] = Variant("s", f"fake-restore-token-{self.tokens_issued}")
            elif state:
                state["closed"] = True
                state["refused"] = True
            # A person answers the dialog after reading it (--answer-after); a desktop that
            # cannot show one answers at once.
            self.answer(request, code, results, after=self.options.answer_after / 1000)
            return Message.new_method_return(msg, "o", [request])
        if member.startswith("Notify"):
            state = self.sessions.get(body[0])
            if not state or not state["started"] or state["closed"]:
                return Message.new_error(msg, "org.freedesktop.DBus.Error.AccessDenied", "Session not started")
            if self.options.forward_delay > 0:
                self.forward_later(msg)
                return True
            return Message.new_method_return(msg)
        return Message.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", member)

    def forward_later(self, msg: Message) -> None:
        """Passes a Notify call on after a random delay, then answers it (--forward-delay)."""
        def forward():
            self.record({"delivered": msg.member, "args": plain(msg.body)[2:]})
            self.bus.send(Message.new_method_return(msg))
        delay = random.uniform(0, self.options.forward_delay) / 1000
        asyncio.get_running_loop().call_later(delay, forward)

    def answer(self, request: str, code: int, results: dict, after: float = 0.01) -> None:
        """The Request's Response signal, `after` s after the call's reply (10 ms: as the portal
        does when it asks nobody)."""
        def emit():
            self.record({"event": "Response", "path": request, "code": code, "results": plain(results)})
            self.bus.send(Message.new_signal(request, REQUEST, "Response", "ua{sv}", [code, results]))
        asyncio.get_running_loop().call_later(max(after, 0.01), emit)

    # -- commands from the test --------------------------------------------------------------------
    def command(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        if words[0] == "close":
            for path, state in self.sessions.items():
                if state["started"] and not state["closed"]:
                    state["closed"] = True
                    self.record({"event": "Closed", "path": path})
                    self.bus.send(Message.new_signal(path, SESSION, "Closed", "a{sv}", [{}]))
        elif words[0] == "start-response":
            self.start_response = int(words[1])
        elif words[0] == "quit":
            return False
        print(f"done {words[0]}", flush=True)
        return True


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--version", type=int, default=2)
    parser.add_argument("--devices", type=int, default=7)
    parser.add_argument("--granted", type=int, default=3)
    parser.add_argument("--start-response", type=int, default=0)
    parser.add_argument("--no-restore-token", action="store_true")
    parser.add_argument("--no-remote-desktop", action="store_true")
    parser.add_argument("--forward-delay", type=float, default=0.0)
    parser.add_argument("--answer-after", type=float, default=10.0)  # ms before Start's Response
    options = parser.parse_args()
    bus = await MessageBus().connect()
    with open(options.log, "a", buffering=1) as log:
        portal = FakePortal(bus, options, log)
        bus.add_message_handler(portal.handle)
        await bus.request_name(SERVICE)
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str] = asyncio.Queue()
        loop.add_reader(sys.stdin.fileno(), lambda: lines.put_nowait(sys.stdin.readline()))
        while True:
            line = await lines.get()
            if line.strip() == "vanish":
                for state in portal.sessions.values():
                    state["closed"] = True
                portal.record({"event": "Vanished"})
                await bus.release_name(SERVICE)
            elif line.strip() == "return":
                await bus.request_name(SERVICE)
                portal.record({"event": "Returned"})
            if not line or not portal.command(line):  # end of input or quit
                break
        loop.remove_reader(sys.stdin.fileno())
    bus.disconnect()


if __name__ == "__main__":
    asyncio.run(main())
