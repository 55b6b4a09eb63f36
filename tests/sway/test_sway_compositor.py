"""The compositor going away under a running `wlroots` server (docs/control.md): control goes
off with the reason, the server runs on, and the next touchpad connection brings control back
on the new compositor. A session of its own: the suite's stays up for the other tests."""
import pytest

from conftest import ACTIVE, FLAT, MISSING
from sway_session import HeadlessSway
from testkit import Server


@pytest.fixture
def own_session():
    if MISSING:
        pytest.fail("not installed: " + ", ".join(MISSING))
    session = HeadlessSway()
    yield session
    session.close()


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
        desktop.events()
        second.tap({1: (300, 300)})
        events = desktop.wait_events(lambda e: any(x["type"] == "button-up" for x in e))
        assert [(e["type"], e["button"]) for e in events if e["type"].startswith("button")] == [
            ("button-down", 1), ("button-up", 1)], events
