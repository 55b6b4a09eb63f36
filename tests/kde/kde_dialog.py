#!/usr/bin/python3
"""Answers xdg-desktop-portal-kde's consent dialog ("Remote control requested") through AT-SPI,
for tests/kde: run by Debian's own /usr/bin/python3 (python3-gi, gir1.2-atspi-2.0; a venv has
neither) with the session's environment, while portal-kde runs with
QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1.

    kde_dialog.py Share|Cancel TIMEOUT

waits up to TIMEOUT seconds for a showing window of the portal with that button, presses it
as a person would — once the window has been showing for REACTION seconds (0.3: about the
quickest a person sees a new window and clicks; GesturePad takes a refusal sooner than 0.1 s
after Start for one nobody could have seen) — and prints {"found": bool, "texts": [every label
and name in the window]} as one JSON line. Polls until its deadlines.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from atspi_nodes import Atspi, applications, has_state, subtree  # noqa: E402

PORTAL_APP = "xdg-desktop-portal-kde"


def dialog(button_name: str):
    """(the button named `button_name`, the window's texts) of a showing portal window, or None."""
    for app in applications(PORTAL_APP):
        for i in range(app.get_child_count()):
            window = app.get_child_at_index(i)
            if window is None or not has_state(window, Atspi.StateType.SHOWING):
                continue
            button, texts = None, []
            for node in subtree(window):
                name = node.get_name() or ""
                if name:
                    texts.append(name)
                if node.get_role() == Atspi.Role.PUSH_BUTTON and name.replace("&", "") == button_name:
                    button = node
            if button is not None:
                return button, texts
    return None


REACTION = 0.3


def main() -> None:
    button_name, timeout = sys.argv[1], float(sys.argv[2])
    deadline = time.monotonic() + timeout
    first_seen = None
    while time.monotonic() < deadline:
        try:
            found = dialog(button_name)
        except Exception:  # noqa: BLE001 — the tree changes under us while the dialog builds
            found = None
        if found is not None:
            first_seen = first_seen or time.monotonic()
            if time.monotonic() - first_seen >= REACTION:
                button, texts = found
                button.do_action(0)
                print(json.dumps({"found": True, "texts": texts}))
                return
        time.sleep(0.05)
    print(json.dumps({"found": False, "texts": []}))


if __name__ == "__main__":
    main()
