"""Sessions of their own (the suite's stays up for the other tests): the compositor going away
under a running `wlroots` server — control goes off with the reason, the server runs on, and
the next touchpad connection brings control back on the new compositor — and the grab a
killed server's held button leaves, seen with two windows side by side (docs/control.md)."""
import pytest

from sway_kit import ACTIVE, FLAT, MISSING, settle
from recorder_events import buttons, last_position, stroke, wait_until
from sway_session import HeadlessSway
from testkit import Server, stop_servers
from touch_input import even_steps


@pytest.fixture
def own_session():
    if MISSING:
        pytest.fail("not installed: " + ", ".join(MISSING))
    session = HeadlessSway()
    yield session
    session.close()


@pytest.fixture
def start_server_on():
    """start_server_on(session, extra) → a `serve --control wlroots` on that session's display."""
    servers = []

    def start(session, extra=None):
        environment = {"XDG_RUNTIME_DIR": session.env["XDG_RUNTIME_DIR"], "WAYLAND_DISPLAY": session.env["WAYLAND_DISPLAY"],
                       "DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": f"unix:path={session.root}/no-bus"}
        server = Server(extra=["--control", "wlroots"] + list(extra or []), env=environment)
        servers.append(server)
        return server

    yield start
    stop_servers(servers)


def test_compositor_gone_turns_control_off_and_the_next_connection_brings_it_back(own_session, pads):
    desktop = own_session
    environment = {"XDG_RUNTIME_DIR": desktop.env["XDG_RUNTIME_DIR"], "WAYLAND_DISPLAY": desktop.env["WAYLAND_DISPLAY"],
                   "DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": f"unix:path={desktop.root}/no-bus"}
    with Server(extra=["--control", "wlroots"] + FLAT, env=environment) as server:
        first = pads(server)
        assert first.welcome.get("control") == ACTIVE, first.welcome
        since = first.mark()
        desktop.stop_compositor()
        off = first.wait_message(lambda m: m.get("type") == "control", since, timeout=5)
        assert off is not None and off.get("active") is False, f"control stayed on: {first.messages(since)}"
        assert "compositor" in off.get("reason", ""), off
        assert server.process.poll() is None, "the server ended with its compositor"

        desktop.start_compositor()
        desktop.start_recorder()
        second = pads(server)
        assert second.welcome.get("control", {}).get("active") is False, second.welcome
        on = second.wait_message(lambda m: m.get("type") == "control" and m.get("active"), timeout=5)
        assert on is not None, f"control did not come back: {second.messages()}"
        settle(desktop)
        second.tap({1: (300, 300)})
        events = desktop.wait_events(lambda e: any(x["type"] == "button-up" for x in e))
        assert [(e["type"], e["button"]) for e in events if e["type"].startswith("button")] == [
            ("button-down", 1), ("button-up", 1)], events


@pytest.fixture
def two_windows():
    if MISSING:
        pytest.fail("not installed: " + ", ".join(MISSING))
    session = HeadlessSway(tiled=True)
    yield session
    session.close()


def test_a_killed_servers_grab_is_ended_by_the_next_server(two_windows, start_server_on, pads):
    """Two windows side by side. A drag held in the left one, then SIGKILL: the left window gets
    no release (wlroots sends none and keeps the grab: every motion would go on to the left
    window). The next server's start releases every button once: its pointer, moved over the
    right window, reaches the right window."""
    desktop = two_windows

    def start():
        """A server and its touchpad, once a window has its keyboard."""
        def focused():
            return desktop.focus_count() + desktop.right.focus_count()

        before = focused()
        server = start_server_on(desktop, FLAT)
        touchpad = pads(server)
        assert touchpad.welcome.get("control") == ACTIVE, touchpad.welcome
        wait_until(lambda: focused() > before, 10, "a window's keyboard focus")
        settle(desktop)
        return server, touchpad

    server, touchpad = start()
    stroke(touchpad, {1: (50, 50)}, even_steps(-3000, -3000, 30))  # to the top left corner
    stroke(touchpad, {1: (50, 50)}, even_steps(300, 300, 10))
    touchpad.tap({1: (400, 400)}, hold=0.03)
    touchpad.down({1: (400, 400)})
    touchpad.move({1: (410, 410)})
    touchpad.sync()
    held = desktop.wait_events(lambda e: buttons(e)[-1:] == [("button-down", 1)], timeout=5)
    assert buttons(held)[-1:] == [("button-down", 1)], f"the left window saw no drag: {held}"
    server.kill()
    assert ("button-up", 1) not in buttons(desktop.wait_events(lambda e: False, timeout=0.5)), "released by sway"
    desktop.right.events()
    _, touchpad = start()
    stroke(touchpad, {1: (50, 50)}, even_steps(640, 0, 16))
    reached = desktop.right.wait_events(lambda e: last_position(e) is not None, timeout=5)
    assert last_position(reached) is not None, (
        f"the right window got no motion (the left one: {desktop.events()}): the grab stayed")
