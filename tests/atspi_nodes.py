"""Walking the AT-SPI tree, for the agents that answer desktop dialogs (tests/gnome's
gnome_agent.py, tests/kde's kde_dialog.py). Needs Debian's python3-gi and gir1.2-atspi-2.0:
import it only from a script run by /usr/bin/python3."""
from __future__ import annotations

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

__all__ = ["Atspi", "GLib", "applications", "has_state", "subtree"]


def applications(name: str):
    """The accessible applications called `name` on the desktop."""
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_name() == name:
            yield app


def subtree(node, depth: int = 0):
    """`node` and everything below it, depth first (40 levels at most)."""
    if node is None or depth > 40:
        return
    yield node
    for i in range(node.get_child_count()):
        yield from subtree(node.get_child_at_index(i), depth + 1)


def has_state(node, state) -> bool:
    """Whether `node` is in `state` (False when it went away meanwhile)."""
    try:
        return node.get_state_set().contains(state)
    except GLib.Error:
        return False
