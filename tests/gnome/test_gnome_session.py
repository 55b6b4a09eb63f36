"""The portal backend's session against a real GNOME 43 (headless): the consent dialog, a
declined dialog, `--control auto`, the session ended from the compositor's side or by the portal
going away, and the release of what is held when the server stops."""
import os
import signal
import time


FLAT = ["--acceleration", "flat", "--speed", "1"]
ACTIVE = {"active": True, "backend": "portal"}
WAITING = "waiting for the desktop's permission"


def test_consent_dialog_then_control(desktop, start_server, pads):
    """Before consent the banner and welcome say control waits for the desktop's dialog, which
    is open; once the test accepts it, the touchpad gets {"type":"control","active":true} and
    its input reaches the compositor."""
    server = start_server(answer=None)
    banner = server.stdout()
    assert WAITING in banner and "(version 1) cannot keep the permission" in banner, banner
    assert desktop.dialog_open(), "no RemoteDesktop dialog while the server waits for it"
    touchpad = pads(server)
    control = touchpad.welcome.get("control", {})
    assert control.get("active") is False and WAITING in control.get("reason", ""), touchpad.welcome
    assert touchpad.request({"type": "key", "key": "Enter"})["code"] == "control_off"

    assert desktop.answer_dialog("accept")
    notice = touchpad.wait_message(lambda m: m.get("type") == "control", timeout=10)
    assert notice == {"type": "control", "active": True, "backend": "portal"}, touchpad.messages()
    assert desktop.remote_sessions() == 1
    assert pads(server).welcome.get("control") == ACTIVE
    desktop.events()
    assert touchpad.request({"type": "key", "key": "Enter"}) is None
    events = desktop.wait_events(lambda e: any(x["type"] == "key-up" for x in e))
    assert [(e["type"], e["keysym"]) for e in events] == [("key-down", 0xFF0D), ("key-up", 0xFF0D)], events


def test_declined_dialog_asks_again_on_the_next_touchpad(desktop, start_server, pads):
    """Cancel in the dialog: the server runs on without control and says so (terminal, page);
    each touchpad connection asks again (one new dialog), nothing asks by itself."""
    creates = desktop.monitor("CreateSession")
    try:
        server = start_server(answer="cancel")
        assert "declined" in server.stdout() + server.stderr(), server.stdout()[-800:]
        touchpad = pads(server)
        assert desktop.answer_dialog("cancel"), "the touchpad connection did not ask again"
        declined = lambda m: m.get("type") == "control" and "declined" in m.get("reason", "")  # noqa: E731
        notice = touchpad.wait_message(declined, timeout=5)
        assert notice is not None and notice["active"] is False, (touchpad.welcome, touchpad.messages())
        error = touchpad.request({"type": "text", "text": "hi"})
        assert error is not None and error["code"] == "control_off", error
        time.sleep(1.0)  # nothing may ask again by itself: no new session, no dialog
        assert creates.count() == 2 and not desktop.dialog_open()
        assert desktop.remote_sessions() == 0

        mark = touchpad.mark()
        second = pads(server)
        assert desktop.answer_dialog("accept"), "the next touchpad connection did not ask again"
        back = touchpad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), mark, timeout=10)
        assert back == {"type": "control", "active": True, "backend": "portal"}, touchpad.messages(mark)
        assert second.wait_message(lambda m: m.get("type") == "control" and m.get("active"), timeout=5)
        assert creates.count() == 3
    finally:
        creates.close()


def test_auto_on_wayland_drives_through_the_portal(desktop, start_server, active_pad):
    """`--control auto` with WAYLAND_DISPLAY set and the portal on the bus: the portal, the
    banner says so, and the pointer moves."""
    server = start_server(FLAT, control="auto")
    touchpad = active_pad(server)
    notices = [{k: v for k, v in m.items() if k != "type"} for m in touchpad.messages(type_="control")]
    assert ([touchpad.welcome.get("control")] + notices)[-1] == ACTIVE, (touchpad.welcome, notices)
    desktop.warp(400, 300)
    touchpad.down({1: (100, 100)})
    touchpad.up(touchpad.glide({1: (100, 100)}, [{1: (10.0, 5.0)}] * 10))
    touchpad.sync()
    assert desktop.wait_for("(([x, y]) => x === 500 && y === 350)(global.get_pointer())"), desktop.pointer()


def test_session_stopped_by_the_compositor(desktop, start_server, pads, active_pad):
    """The compositor ends the session (the shell's "Stop"): control turns off with the reason,
    commands are refused, nothing asks again by itself; the next touchpad connection asks again
    (a new dialog) and control comes back."""
    creates = desktop.monitor("CreateSession")
    try:
        server = start_server()
        touchpad = active_pad(server)
        mark = touchpad.mark()
        assert desktop.stop_remote_sessions() == 1
        notice = touchpad.wait_message(lambda m: m.get("type") == "control", mark, timeout=5)
        assert notice is not None and notice["active"] is False, touchpad.messages(mark)
        assert "ended the remote control session" in notice["reason"], notice
        assert touchpad.request({"type": "key", "key": "a"})["code"] == "control_off"
        time.sleep(1.0)  # nothing may ask again by itself
        assert creates.count() == 1 and not desktop.dialog_open()
        assert "control is off" in server.stderr()

        mark = touchpad.mark()
        pads(server)
        assert desktop.answer_dialog("accept"), "the next touchpad connection did not ask again"
        back = touchpad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), mark, timeout=10)
        assert back is not None, touchpad.messages(mark)
        assert creates.count() == 2 and desktop.remote_sessions() == 1
    finally:
        creates.close()


def test_portal_service_stopped(desktop, start_server, pads, active_pad):
    """xdg-desktop-portal goes away (killed: the desktop restarts it): its sessions end without a
    Closed signal; control turns off with the reason; the next touchpad connection starts the
    portal again (D-Bus activation) and asks again."""
    server = start_server()
    touchpad = active_pad(server)
    pid = desktop.portal_pid()
    assert pid is not None
    mark = touchpad.mark()
    os.kill(pid, signal.SIGTERM)
    notice = touchpad.wait_message(lambda m: m.get("type") == "control", mark, timeout=5)
    assert notice is not None and notice["active"] is False, touchpad.messages(mark)
    assert "left the session bus" in notice["reason"], notice
    # (GNOME 43 keeps the compositor's side of that session: xdg-desktop-portal-gnome still holds
    # it. Nothing can reach it any more; docs/control.md.)

    mark = touchpad.mark()
    pads(server)
    assert desktop.answer_dialog("accept", timeout=15), "the next touchpad connection did not ask again"
    back = touchpad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), mark, timeout=10)
    assert back is not None, touchpad.messages(mark)
    assert desktop.portal_pid() not in (None, pid)


def test_sigterm_releases_what_is_held(desktop, start_server, active_pad):
    """SIGTERM while the page holds the left button: the compositor sees it released, and the
    session closed, before the server exits."""
    server = start_server()
    touchpad = active_pad(server)
    assert touchpad.request({"type": "button", "button": "left", "action": "down"}) is None
    assert desktop.wait_for("(global.get_pointer()[2] & 0x100) !== 0"), "the button did not go down"
    assert server.stop() == 0
    # The portal answered the release before the server exited; it reaches mutter just after.
    assert desktop.wait_for("(global.get_pointer()[2] & 0x100) === 0", timeout=1), "the button stayed down"
    assert desktop.wait_for("global._gesturepadHandles.length === 0", timeout=2), "the session stayed open"


def test_sigkill_releases_what_is_held(desktop, start_server, active_pad):
    """SIGKILL while the page holds the left button: the server releases nothing itself, yet
    xdg-desktop-portal closes the session when the server's bus connection goes, and mutter
    lets go of what the session's virtual pointer held."""
    server = start_server()
    touchpad = active_pad(server)
    assert touchpad.request({"type": "button", "button": "left", "action": "down"}) is None
    assert desktop.wait_for("(global.get_pointer()[2] & 0x100) !== 0"), "the button did not go down"
    server.kill()
    assert desktop.wait_for("(global.get_pointer()[2] & 0x100) === 0", timeout=2), "the button stayed down"
    assert desktop.wait_for("global._gesturepadHandles.length === 0", timeout=2), "the session stayed open"
