#!/usr/bin/python3
"""The test's hands and eyes inside the headless GNOME session (tests/gnome): run by Debian's
own /usr/bin/python3, which has python3-dbus and python3-gi (a venv's Python does not).

One JSON request per line on stdin, one JSON answer per line on stdout:

  {"op": "eval", "js": "…"}                → {"ok": true, "value": <the JSON the code returned>}
  {"op": "dialog", "answer": "accept"|"cancel", "timeout": 10}
                                           → {"ok": true, "found": true}: the RemoteDesktop consent
                                             dialog of xdg-desktop-portal-gnome was answered
  {"op": "dialog-open"}                    → {"ok": true, "open": bool}
  {"op": "text", "timeout": 3}             → {"ok": true, "text": "…"}: the text of the test
                                             window's entry (AT-SPI), see `window`
  {"op": "quit"}

Errors answer {"ok": false, "error": "…"}. Nothing here waits by sleeping for a fixed time:
every wait polls its condition until a deadline.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import dbus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from atspi_nodes import Atspi, GLib, applications, has_state, subtree  # noqa: E402

PORTAL_APP = "xdg-desktop-portal-gnome"


class Agent:
    def __init__(self):
        self.bus = dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])

    # -- org.gnome.Shell.Eval ---------------------------------------------------------------------
    def eval(self, js: str):
        ok, result = self.bus.call_blocking("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                                            "s", [js], timeout=10)
        if not ok:
            raise RuntimeError(f"Eval failed: {result}")
        return json.loads(result) if result else None

    # -- AT-SPI -------------------------------------------------------------------------------------
    def _dialog_nodes(self):
        """(check box, share button, cancel button) of an open RemoteDesktop dialog, or None."""
        for app in applications(PORTAL_APP):
            for i in range(app.get_child_count()):
                window = app.get_child_at_index(i)
                if window is None or not has_state(window, Atspi.StateType.SHOWING):
                    continue
                check = share = cancel = None
                for node in subtree(window):
                    role = node.get_role()
                    name = node.get_name() or ""
                    if role == Atspi.Role.CHECK_BOX and check is None:
                        check = node
                    elif role == Atspi.Role.PUSH_BUTTON and "Share" in name:
                        share = node
                    elif role == Atspi.Role.PUSH_BUTTON and "Cancel" in name:
                        cancel = node
                if share is not None and cancel is not None:
                    return check, share, cancel
        return None

    def dialog_open(self) -> bool:
        try:
            return self._dialog_nodes() is not None
        except GLib.Error:
            return False

    def dialog(self, answer: str, timeout: float) -> bool:
        """Answers the dialog: `accept` switches "Allow remote interaction" on, then Share;
        `cancel` presses Cancel. False when no dialog appeared before `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                nodes = self._dialog_nodes()
            except GLib.Error:
                nodes = None
            if nodes is None:
                time.sleep(0.05)
                continue
            check, share, cancel = nodes
            if answer == "cancel":
                cancel.do_action(0)
                return True
            if check is not None and not has_state(check, Atspi.StateType.CHECKED):
                check.do_action(0)
            while time.monotonic() < deadline and not has_state(share, Atspi.StateType.SENSITIVE):
                time.sleep(0.02)
            share.do_action(0)
            return True
        return False

    def entry_text(self, app_name: str) -> str | None:
        for app in applications(app_name):
            for node in subtree(app):
                if node.get_role() in (Atspi.Role.ENTRY, Atspi.Role.TEXT):
                    text = node.get_text_iface()
                    if text is not None:
                        return text.get_text(0, text.get_character_count())
        return None


def main() -> None:
    agent = Agent()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        op = request.get("op")
        try:
            if op == "eval":
                answer = {"ok": True, "value": agent.eval(request["js"])}
            elif op == "dialog":
                found = agent.dialog(request.get("answer", "accept"), float(request.get("timeout", 10)))
                answer = {"ok": True, "found": found}
            elif op == "dialog-open":
                answer = {"ok": True, "open": agent.dialog_open()}
            elif op == "entry-text":
                answer = {"ok": True, "text": agent.entry_text(request["app"])}
            elif op == "tree":
                desktop = Atspi.get_desktop(0)
                names = []
                for i in range(desktop.get_child_count()):
                    app = desktop.get_child_at_index(i)
                    names.append([app.get_name(), [f"{n.get_role_name()}:{n.get_name()}" for n in subtree(app)][:40] if app.get_name() != "xdg-desktop-portal-gnome" else [f"{n.get_role_name()}:{n.get_name()}:{[s.value_nick for s in n.get_state_set().get_states()]}" for n in subtree(app)]])
                answer = {"ok": True, "apps": names}
            elif op == "quit":
                print(json.dumps({"ok": True}), flush=True)
                return
            else:
                answer = {"ok": False, "error": f"unknown op {op!r}"}
        except Exception as error:  # noqa: BLE001 — every failure goes back to the test
            answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
