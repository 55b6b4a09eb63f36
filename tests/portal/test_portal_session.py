"""The portal backend's session against a fake desktop portal on a private bus: the Request /
Response flow, consent kept through the restore token, the session ending, `--control auto`."""
import os
import stat
import time

import pytest

from testkit import Server

WAITING = "waiting for the desktop's permission"


def token_file(state_home):
    return state_home / "gesturepad" / "portal-restore-token"


def test_session_flow_and_token_stored(portals, start_server, pads, state_home):
    """CreateSession → SelectDevices (types 3, persist_mode 2) → Start, each answered by its
    Request's Response; the restore token is stored 0600 in a 0700 folder; welcome says portal."""
    portal = portals()
    server = start_server()
    assert portal.session_flow() == [
        "CreateSession", "Response(0)", "SelectDevices", "Response(0)", "Start", "Response(0)"], portal.entries()
    create = portal.calls("CreateSession")[0]["args"][0]
    select = portal.calls("SelectDevices")[0]["args"]
    sender = create and portal.calls("CreateSession")[0]["sender"].lstrip(":").replace(".", "_")
    assert select[0] == f"/org/freedesktop/portal/desktop/session/{sender}/{create['session_handle_token']}"
    assert select[1]["types"] == 3 and select[1]["persist_mode"] == 2, select
    assert "restore_token" not in select[1], "no token was stored, yet one was sent"
    responses = [e for e in portal.entries() if e.get("event") == "Response"]
    tokens = [portal.calls(m)[0]["args"][-1]["handle_token"] for m in ("CreateSession", "SelectDevices", "Start")]
    assert [r["path"] for r in responses] == [
        f"/org/freedesktop/portal/desktop/request/{sender}/{t}" for t in tokens]

    pad = pads(server)
    assert pad.welcome.get("control") == {"active": True, "backend": "portal"}, pad.welcome
    path = token_file(state_home)
    assert path.read_text().strip() == "fake-restore-token-1"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    output = server.stdout()
    assert "through portal" in output and str(path) in output, output[-800:]


def test_restore_token_sent_on_next_start(portals, start_server, state_home):
    """The stored token goes with the next start's SelectDevices; the new one replaces it."""
    portal = portals()
    first = start_server()
    assert first.stop() == 0
    assert token_file(state_home).read_text().strip() == "fake-restore-token-1"
    start_server()
    selects = portal.calls("SelectDevices")
    assert len(selects) == 2
    assert selects[1]["args"][1].get("restore_token") == "fake-restore-token-1", selects[1]
    assert token_file(state_home).read_text().strip() == "fake-restore-token-2"


def test_version_one_portal_cannot_persist(portals, start_server, pads, state_home):
    """RemoteDesktop version 1: no persist_mode, no token; the banner says it asks at every start."""
    portal = portals("--version", "1")
    server = start_server()
    options = portal.calls("SelectDevices")[0]["args"][1]
    assert "persist_mode" not in options and "restore_token" not in options, options
    assert pads(server).welcome.get("control") == {"active": True, "backend": "portal"}
    assert not token_file(state_home).exists()
    assert "cannot keep the permission" in server.stdout(), server.stdout()[-800:]


def test_revoked_session_turns_control_off_and_is_asked_again(portals, start_server, pads):
    """Session.Closed: the touchpad gets {"type":"control","active":false,…}, the terminal says
    why, commands get control_off, nothing asks again by itself; the next touchpad connection
    asks again, and the touchpads drive the computer again."""
    portal = portals()
    server = start_server()
    pad = pads(server)
    observer = pads(server, role="observer")
    mark = pad.mark()
    portal.command("close")
    notice = pad.wait_message(lambda m: m.get("type") == "control", mark)
    assert notice is not None and notice["active"] is False, pad.messages(mark)
    assert "ended the remote control session" in notice["reason"], notice
    error = pad.request({"type": "text", "text": "hi"})
    assert error is not None and error["code"] == "control_off", error
    assert observer.messages(type_="control") == [], "observers are not told"
    time.sleep(1.0)
    assert len(portal.calls("CreateSession")) == 1, "control was asked for again without a touchpad connecting"
    assert "control is off" in server.stderr(), server.stderr()[-800:]

    mark = pad.mark()
    second = pads(server)
    assert portal.wait_for(lambda p: len(p.calls("CreateSession")) == 2), portal.entries()
    back = pad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), mark)
    assert back == {"type": "control", "active": True, "backend": "portal"}, pad.messages(mark)
    flow = portal.session_flow()
    assert flow[-6:] == ["CreateSession", "Response(0)", "SelectDevices", "Response(0)", "Start", "Response(0)"], flow
    assert portal.calls("SelectDevices")[1]["args"][1].get("restore_token") == "fake-restore-token-1"
    assert second.request({"type": "key", "key": "Enter"}) is None
    assert portal.wait_for(lambda p: ("NotifyKeyboardKeycode", 28, 0) in p.notifies()), portal.notifies()


def test_portal_leaving_the_bus_turns_control_off(portals, start_server, pads):
    """The portal leaves the bus (it restarted: its sessions are gone without a Closed signal):
    control turns off with the reason; when it is back, the next touchpad connection asks again."""
    portal = portals()
    server = start_server()
    pad = pads(server)
    mark = pad.mark()
    portal.command("vanish")
    notice = pad.wait_message(lambda m: m.get("type") == "control", mark)
    assert notice is not None and notice["active"] is False and "left the session bus" in notice["reason"], notice
    portal.command("return")
    mark = pad.mark()
    pads(server)
    back = pad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), mark)
    assert back is not None, f"control did not come back: {pad.messages(mark)} {portal.session_flow()}"
    assert len(portal.calls("CreateSession")) == 2


def test_declined_dialog_keeps_serving_and_asks_again(portals, start_server, pads):
    """The user declines (Response 1, after reading the dialog for 300 ms): the server runs on
    without control and says why; the next touchpad connection asks again."""
    portal = portals("--start-response", "1", "--answer-after", "300")
    server = start_server()
    assert "declined" in server.stdout(), server.stdout()[-800:]
    pad = pads(server)
    control = pad.welcome.get("control", {})
    assert control.get("active") is False and "declined" in control.get("reason", ""), pad.welcome
    # xdg-desktop-portal closes a session whose Start was refused; closing it again only fails.
    assert "Session.Close" not in portal.session_flow(), "the declined session was closed a second time"
    assert "refused a call" not in server.stderr(), server.stderr()[-800:]
    portal.command("start-response 0")
    mark = pad.mark()
    pads(server)
    back = pad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), mark)
    assert back is not None, f"control did not come back: {pad.messages(mark)} {portal.session_flow()}"


def test_a_refusal_too_soon_for_a_person_is_not_called_declined(portals, start_server, pads):
    """Response 1 within 10 ms of Start — as KDE's portal answers when it cannot show its dialog:
    the server says the desktop could not show one, never that it was declined."""
    portals("--start-response", "1", "--answer-after", "10")
    server = start_server()
    assert "could not show" in server.stdout() and "declined" not in server.stdout(), server.stdout()[-800:]
    control = pads(server).welcome.get("control", {})
    assert control.get("active") is False and "could not show" in control.get("reason", ""), control


def test_no_remote_desktop_on_the_bus(portals, bus, state_home):
    """--control portal stops with one line when the bus has no RemoteDesktop portal; auto in a
    Wayland session runs without control and says why (unless /dev/uinput is writable)."""
    portals("--no-remote-desktop")
    env = {"DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_STATE_HOME": str(state_home), "DISPLAY": ""}
    with pytest.raises(RuntimeError) as failure:
        Server(extra=["--control", "portal"], env=env)
    assert "does not offer RemoteDesktop" in str(failure.value), failure.value
    if os.access("/dev/uinput", os.W_OK):
        pytest.skip("/dev/uinput is writable here: auto would use it")
    with Server(extra=["--control", "auto"], env=dict(env, WAYLAND_DISPLAY="wayland-test")) as server:
        assert server.stop() == 0
        assert "without the RemoteDesktop portal" in server.stdout(), server.stdout()[-800:]


def test_auto_picks_the_portal_on_wayland(portals, start_server, pads):
    """--control auto with WAYLAND_DISPLAY and the portal on the bus drives through the portal."""
    portals()
    server = start_server(control="auto", env={"WAYLAND_DISPLAY": "wayland-test", "DISPLAY": ":99"})
    assert pads(server).welcome.get("control") == {"active": True, "backend": "portal"}


def test_auto_without_wayland_does_not_ask_the_portal(portals, start_server):
    """--control auto outside Wayland never talks to the portal."""
    portal = portals()
    start_server(control="auto").stop()
    assert portal.calls() == [], portal.calls()


def test_server_stop_releases_and_closes_the_session(portals, start_server, pads):
    """SIGTERM while the page holds a button: the button is released, then the session closed."""
    portal = portals()
    server = start_server()
    pad = pads(server)
    assert pad.request({"type": "button", "button": "left", "action": "down"}) is None
    assert portal.wait_for(lambda p: ("NotifyPointerButton", 272, 1) in p.notifies())
    assert server.stop() == 0
    flow = portal.settle()
    notifies = portal.notifies()
    assert notifies[-1] == ("NotifyPointerButton", 272, 0), notifies
    assert flow[-1].get("call") == "Session.Close", flow[-3:]
