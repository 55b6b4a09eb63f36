"""KDE Plasma 5.27's consent dialog, for a server started the way Plasma starts programs: in a
systemd app scope (`app-org.gesturepad.Test-N.scope`), from which xdg-desktop-portal 1.16
derives an app id — and KDE then asks at every start ("Remote control requested"). The dialog
is answered through AT-SPI (docs/control.md "KDE Plasma: what its portal does differently").

Share and Cancel need the dialog's QML (`@pytest.mark.dialog`); the last row runs the same
server against a portal without it, which refuses at once without showing anything.
"""
from pathlib import Path

import pytest

from recorder_events import typed
from testkit import eventually

APP_ID = "org.gesturepad.Test"
# An app id with a desktop entry of its name (the session's, for the session's life: another
# row's id has none).
NAMED_APP_ID = "org.gesturepad.Named"
DECLINED = "remote control was declined in the desktop's dialog"


def desktop_entry(desktop, app_id: str, name: str) -> None:
    """A desktop entry whose file name is `app_id` (what Plasma's launcher starts programs
    from): KDE's dialog then names the program by the entry's Name."""
    folder = Path(desktop.env["XDG_DATA_HOME"]) / "applications"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{app_id}.desktop").write_text(f"[Desktop Entry]\nType=Application\nName={name}\nExec=gesturepad\n")


def in_scope(server, scope) -> bool:
    """Whether the server runs in `scope` in every systemd hierarchy (/proc/PID/cgroup)."""
    lines = Path(f"/proc/{server.process.pid}/cgroup").read_text().splitlines()
    systemd = [line.split(":", 2)[2] for line in lines if line.startswith("0::") or ":name=systemd:" in line]
    return bool(systemd) and all(path == scope.cgroup_line() for path in systemd)


def warnings(server) -> list[str]:
    return [line for line in (server.stdout() + server.stderr()).splitlines() if "warning" in line.lower()]


@pytest.mark.dialog
def test_share_in_the_dialog_gives_control_and_text_types(desktop, start_server, scopes, pads):
    """A server in an app scope whose desktop entry is named by the app id: KDE asks, naming the
    entry; Share gives control at once (the page's welcome), and text typed on the page reaches
    the focused Wayland window."""
    desktop_entry(desktop, NAMED_APP_ID, "GesturePad Dialog Test")
    scope = scopes(NAMED_APP_ID)
    server = start_server(scope=scope, answer="Share")
    assert in_scope(server, scope), Path(f"/proc/{server.process.pid}/cgroup").read_text()
    assert server.dialog.get("found"), "no consent dialog showed: " + desktop.logs()[-1500:]
    texts = server.dialog["texts"]
    assert "Remote control requested" in texts, texts
    assert any(t.startswith("GesturePad Dialog Test requested access to remotely control") for t in texts), texts
    touchpad = pads(server)
    if touchpad.welcome.get("control") != {"active": True, "backend": "portal"}:  # Share after the server's 1 s wait
        notice = touchpad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), timeout=10)
        assert notice is not None, f"Share did not give control: {touchpad.welcome} {touchpad.messages()}"
    desktop.events()
    assert touchpad.request({"type": "text", "text": "Shared, 1+1=2"}) is None
    events = desktop.wait_events(lambda e: typed(e) == "Shared, 1+1=2")
    assert typed(events) == "Shared, 1+1=2", events
    assert warnings(server) == [], warnings(server)


@pytest.mark.dialog
def test_cancel_in_the_dialog_is_declined_with_the_reason_and_no_warning(desktop, start_server, scopes, pads):
    """Without a desktop entry of the app id's name the dialog names no program. Cancel: the
    server runs on without control and says it was declined (the banner, the page's welcome);
    the touchpad's connection asks again (KDE 5.27 remembers nothing), and a second Cancel
    reaches the page as a `control` notice with the reason, and the terminal; text is answered
    control_off. The ended sessions are not closed again ("refused a call"), and nothing is
    logged as a warning: a person's No is their choice, said as a notice."""
    scope = scopes(APP_ID)
    server = start_server(scope=scope, answer="Cancel")
    assert in_scope(server, scope), Path(f"/proc/{server.process.pid}/cgroup").read_text()
    assert server.dialog.get("found"), "no consent dialog showed: " + desktop.logs()[-1500:]
    assert any(t.startswith("Requested access to") for t in server.dialog["texts"]), server.dialog["texts"]
    assert DECLINED in server.stdout(), server.stdout()[-800:]
    touchpad = pads(server)
    control = touchpad.welcome.get("control", {})
    assert control.get("active") is False and DECLINED in control.get("reason", ""), touchpad.welcome
    assert desktop.answer_dialog("Cancel").get("found"), "the touchpad's connection did not ask again"
    notice = touchpad.wait_message(lambda m: m.get("type") == "control" and DECLINED in m.get("reason", ""),
                                   timeout=10)
    assert notice is not None and notice["active"] is False, touchpad.messages()
    assert (touchpad.request({"type": "text", "text": "x"}) or {}).get("code") == "control_off"
    assert eventually(lambda: f"control is off: {DECLINED}" in server.stderr(), within=10), server.stderr()[-1500:]
    assert "refused a call" not in server.stderr(), server.stderr()[-1500:]
    assert warnings(server) == [], warnings(server)


def test_a_portal_that_cannot_show_its_dialog_is_not_reported_as_declined(desktop, start_server, scopes, pads):
    """The same server in an app scope, against a portal without the dialog's QML: portal-kde
    answers Start with 1 in 4–40 ms ("module … is not installed"). GesturePad says the
    dialog could not be shown and how soon the refusal came — not that someone declined."""
    scope = scopes(APP_ID)
    server = start_server(scope=scope)
    assert in_scope(server, scope), Path(f"/proc/{server.process.pid}/cgroup").read_text()
    touchpad = pads(server)
    control = touchpad.welcome.get("control", {})
    assert control.get("active") is False, touchpad.welcome
    reason = control.get("reason", "")
    assert "could not show" in reason and "plasma-workspace" in reason and "declined" not in reason, reason
    assert "could not show" in server.stdout() + server.stderr(), server.stderr()[-800:]
    assert "is not installed" in desktop.logs(), "the portal did not fail to load its dialog: " + desktop.logs()[-1500:]
