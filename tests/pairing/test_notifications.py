"""The desktop notification of pairing (docs/server.md "Pairing"), against a notification
server double (python-dbusmock's notification_daemon) on a private session bus: a new device's
Notify names it and offers "Forget", which revokes it; with --confirm-pairing "Allow" and "Deny"
answer a waiting device; --notify connections also tells when a paired device connects."""
import json
import time

from testkit import Server, close_code, hello, recv_json

SECRET = "notify-secret-Secret0123456789abcdefZ"
PIXEL = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/120.0.0.0 Mobile Safari/537.36")


def serve(notifications, *extra, notify="pairing"):
    return Server(token=SECRET, extra=["--notify", notify, *extra],
                  env={"DBUS_SESSION_BUS_ADDRESS": notifications.bus.address})


def pair(server, agent=PIXEL):
    ws = server.connect(token=SECRET, additional_headers={"User-Agent": agent})
    return ws


def test_new_device_notifies_and_forget_revokes(notifications):
    """Notify "Pixel 8 · Chrome paired" with a Forget button; pressing it closes the device's
    connection with 4403, and its key is refused in the handshake from then on (403)."""
    with serve(notifications) as server:
        ws = pair(server)
        welcome = hello(ws)
        key = welcome["device"]["key"]
        [notice] = notifications.wait_notify(1)
        assert notice["app"] == "GesturePad" and notice["summary"] == "Pixel 8 · Chrome paired"
        assert notice["actions"] == {"forget": "Forget"}
        assert key not in json.dumps(notice) and SECRET not in json.dumps(notice)
        notifications.invoke(notice["id"], "forget")
        assert close_code(ws) == 4403
        assert server.refused_upgrade(key) == 403
        assert server.pairing_status(key) == (200, {"state": "revoked"})
        assert "forgotten: Pixel 8 · Chrome" in server.stderr()
        assert key not in server.stderr() and SECRET not in server.stderr()


def test_confirm_pairing_allow_in_the_notification(notifications):
    """--confirm-pairing: Notify "… asks to pair" with Allow / Deny; Allow admits the waiting page (welcome with its key)."""
    with serve(notifications, "--confirm-pairing") as server:
        assert server.pairing_status(SECRET) == (200, {"state": "pairing", "confirm": True})
        ws = pair(server)
        assert recv_json(ws)["type"] == "pairing"
        ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}))
        [notice] = notifications.wait_notify(1)
        assert notice["summary"] == "Pixel 8 · Chrome asks to pair"
        # The name is the phone's own claim, shown with where it connects from.
        assert notice["body"].startswith("It calls itself \u201cPixel 8 · Chrome\u201d and connects from this computer.")
        assert notice["actions"] == {"allow": "Allow", "deny": "Deny"} and notice["timeout"] == 60_000
        notifications.invoke(notice["id"], "allow")
        welcome = recv_json(ws, timeout=5)
        assert welcome["type"] == "welcome" and len(welcome["device"]["key"]) == 43
        ws.close()
        # Answered, the request's notification is taken back (CloseNotification).
        notifications.wait_for(lambda: notice["id"] in notifications.closed_ids())


def test_confirm_pairing_deny_in_the_notification(notifications):
    """Deny refuses the waiting page with 4401."""
    with serve(notifications, "--confirm-pairing") as server:
        ws = pair(server)
        assert recv_json(ws)["type"] == "pairing"
        [notice] = notifications.wait_notify(1)
        notifications.invoke(notice["id"], "deny")
        assert close_code(ws) == 4401


def test_an_action_from_another_process_is_ignored(notifications):
    """Only the notification server's own ActionInvoked counts: another process on the session
    bus emitting "allow" with the (guessable) id approves nothing; the server's "deny" then
    refuses the page."""
    import dbus as dbus_python
    import dbus.lowlevel
    with serve(notifications, "--confirm-pairing") as server:
        ws = pair(server)
        assert recv_json(ws)["type"] == "pairing"
        [notice] = notifications.wait_notify(1)
        impostor = dbus_python.bus.BusConnection(notifications.bus.address)
        try:
            signal = dbus.lowlevel.SignalMessage(
                "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "ActionInvoked")
            signal.append(dbus_python.UInt32(notice["id"]), "allow", signature="us")
            impostor.send_message(signal)
            impostor.flush()
            notifications.wait_for(lambda: "did not come from the notification server" in server.stderr())
        finally:
            impostor.close()
        notifications.invoke(notice["id"], "deny")
        assert close_code(ws) == 4401, "the impostor's allow must not have admitted the page"


def test_notify_connections_tells_each_reconnection(notifications):
    """--notify connections: a paired device that connects again is announced too."""
    with serve(notifications, notify="connections") as server:
        ws = pair(server)
        key = hello(ws)["device"]["key"]
        ws.close()
        notifications.wait_notify(1)
        with server.connect(token=key) as again:
            assert hello(again)["type"] == "welcome"
            calls = notifications.wait_notify(2)
        assert calls[1]["summary"] == "Pixel 8 · Chrome connected" and calls[1]["actions"] == {"forget": "Forget"}


def test_a_bus_without_a_notification_server_is_a_terminal_line(empty_bus):
    """A session bus but no notification server: pairing works, and the terminal says so once."""
    with Server(token=SECRET, extra=["--notify", "pairing"], env={"DBUS_SESSION_BUS_ADDRESS": empty_bus.address}) as server:
        # Two phones (two User-Agents: the same one pairing again would take its entry back).
        for agent in (PIXEL, PIXEL.replace("Chrome/120", "Chrome/121")):
            ws = pair(server, agent)
            assert len(hello(ws)["device"]["key"]) == 43
            ws.close()
        deadline = time.monotonic() + 5
        while "no desktop notifications" not in server.stderr() and time.monotonic() < deadline:
            time.sleep(0.05)
        log = server.stderr()
        assert log.count("no desktop notifications") == 1 and "org.freedesktop.Notifications" in log
        assert log.count("paired a new device: Pixel 8 · Chrome") == 2


def test_an_observer_is_announced_as_one_and_its_pairing_again_too(notifications):
    """A pairing from the observer page (`auth.kind` "observer") is announced as a browser that
    can watch the gestures, not use the computer as a touchpad; the same browser pairing again
    while not connected takes its entry over, and that is announced too ("paired again")."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
    from test_observer_pairing import prove  # the proof handshake, from Python's hashlib / hmac

    with serve(notifications) as server:
        first = prove(server, SECRET, kind="observer")
        device = first.hello("observer")["device"]
        assert device["name"] == "Watching · Linux · Chrome"
        [notice] = notifications.wait_notify(1)
        assert notice["summary"] == "Watching · Linux · Chrome paired" and notice["actions"] == {"forget": "Forget"}
        assert "watch the gestures" in notice["body"] and "cannot use this computer as a touchpad" in notice["body"]
        first.ws.close()
        second = prove(server, SECRET, kind="observer")
        assert second.hello("observer")["device"] == device
        calls = notifications.wait_notify(2)
        assert calls[1]["summary"] == "Watching · Linux · Chrome paired again"
        assert "earlier pairing no longer works" in calls[1]["body"] and "watch the gestures" in calls[1]["body"]
        second.ws.close()
