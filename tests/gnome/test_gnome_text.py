"""Text over the portal on a real GNOME 43: the compositor types a keysym only when its current
keyboard layout has a key for it, and drops the others without a word. So the backend follows
the layout (the Wayland keymap), sends the keysym the layout lists, and refuses — before typing
anything — a `text` or `key` holding a character the layout cannot type."""
import time


def typed(events) -> str:
    """The characters of the key presses (modifiers type none)."""
    return "".join(e["unicode"] for e in events if e["type"] == "key-down")


def released(character: str):
    return lambda events: any(e["type"] == "key-up" and e["unicode"] == character for e in events)


def wait_layout(server, names: str, timeout: float = 5.0) -> None:
    """Waits until the server reports the desktop's layout as `names` ("German")."""
    line = f"the desktop's keyboard layout: {names} ("
    deadline = time.monotonic() + timeout
    while line not in server.stderr():
        assert time.monotonic() < deadline, f"no {line!r}: {server.stderr()[-800:]}"
        time.sleep(0.02)


def pad_on(desktop, start_server, active_pad, layouts: list[str], names: str):
    """A touchpad of a new server once the desktop has `layouts` and the server has read them."""
    server = start_server()
    pad = active_pad(server)
    desktop.set_layouts(layouts)
    wait_layout(server, names)
    desktop.events()
    return pad


def only_after_refusal(desktop, pad, probe: str = "x") -> list[dict]:
    """Types `probe` and returns every stage event up to its release: anything typed by the
    refused messages before it would show up first."""
    assert pad.request({"type": "text", "text": probe}) is None
    return desktop.wait_events(released(probe))


def test_characters_off_the_layout_are_refused_whole(desktop, start_server, active_pad):
    """US layout: "Hello, wörld" and a CJK string are refused with bad_field naming every
    character the layout lacks and the layout; nothing of them is typed (GNOME would have typed
    "Hello, wrld"); a `key` "é" likewise."""
    server = start_server()
    pad = active_pad(server)
    wait_layout(server, "English (US)")
    desktop.events()
    refused = pad.request({"type": "text", "text": "Hello, wörld"})
    assert refused is not None and refused["code"] == "bad_field", refused
    assert refused["message"].startswith('text: the portal backend cannot type "ö" (U+00F6): '), refused
    assert "(English (US))" in refused["message"] and "nothing was typed" in refused["message"], refused
    refused = pad.request({"type": "text", "text": "中文です"})
    assert refused is not None and '"中" (U+4E2D), "文" (U+6587), "で" (U+3067), "す" (U+3059)' in refused["message"]
    refused = pad.request({"type": "key", "key": "é", "modifiers": ["Shift"]})
    assert refused is not None and refused["message"].startswith('key: the portal backend cannot type "é"'), refused
    assert typed(only_after_refusal(desktop, pad)) == "x"


def test_the_layouts_own_keysyms_type_its_characters(desktop, start_server, active_pad):
    """German layout: "Hello, wörld €" is typed exactly — ö as odiaeresis, € as EuroSign (the
    Unicode keysym 0x10020AC would be dropped), @ through AltGr; CJK is still refused."""
    pad = pad_on(desktop, start_server, active_pad, ["de"], "German")
    assert pad.request({"type": "text", "text": "Hello, wörld € @"}) is None
    events = desktop.wait_events(released("@"))
    assert typed(events) == "Hello, wörld € @", events
    euro = next(e for e in events if e["type"] == "key-down" and e["unicode"] == "€")
    assert euro["keysym"] == 0x20AC, euro
    refused = pad.request({"type": "text", "text": "中"})
    assert refused is not None and "(German)" in refused["message"], refused


def test_cyrillic_on_a_russian_layout(desktop, start_server, active_pad):
    """Russian layout: "привет" is typed with the layout's Cyrillic keysyms; Latin letters,
    which it has no key for, are refused."""
    pad = pad_on(desktop, start_server, active_pad, ["ru"], "Russian")
    assert pad.request({"type": "text", "text": "привет"}) is None
    events = desktop.wait_events(released("т"))
    assert typed(events) == "привет", events
    refused = pad.request({"type": "text", "text": "hello"})
    assert refused is not None and "(Russian)" in refused["message"], refused


def test_several_layouts_keep_what_all_of_them_type(desktop, start_server, active_pad):
    """Two input sources (US, Russian): which one is in use is not known to a client, so only
    what both type is accepted: digits yes, Latin or Cyrillic letters no (refused, not lost)."""
    pad = pad_on(desktop, start_server, active_pad, ["us", "ru"], "English (US), Russian")
    for text in ("hello", "привет"):
        refused = pad.request({"type": "text", "text": text})
        assert refused is not None and "not on every one" in refused["message"], refused
    assert pad.request({"type": "text", "text": "1234"}) is None
    events = desktop.wait_events(released("4"))
    assert typed(events) == "1234", events


def test_the_touchpad_backend_reads_the_compositors_layout(desktop, start_server, active_pad, pads, tmp_path):
    """`--control touchpad` (its devices' events to a file: there is no /dev/uinput here) with no
    `--keyboard-layout` asks the real compositor for its keymap at start (one Wayland round,
    GNOME's locale layout left out) and types through it: on German, "ö€" is accepted and "中"
    refused naming German. (Headless GNOME sends a keymap once a keyboard exists: a portal
    server's touchpad makes one first.)"""
    pad_on(desktop, start_server, active_pad, ["de"], "German")
    output = tmp_path / "touchpad.events"
    output.touch()
    server = start_server(["--test-touchpad-output", str(output)], control="touchpad", answer=None)
    assert "the desktop's keyboard layout (the Wayland compositor's): German (" in server.stderr(), \
        server.stderr()[-800:]
    touchpad = pads(server)
    assert touchpad.request({"type": "text", "text": "ö€"}) is None
    refused = touchpad.request({"type": "text", "text": "a中"})
    assert refused is not None and refused["code"] == "bad_field" and "(German)" in refused["message"], refused


def test_the_touchpad_backend_keeps_what_every_layout_types(desktop, start_server, active_pad, pads, tmp_path):
    """`--control touchpad` on a desktop with two input sources (US, Russian) sends key codes
    without knowing which layout is active, so it accepts only what both type on the same key
    and level (docs/control.md, several layouts): digits yes, Latin or Cyrillic letters refused
    naming both layouts — never typed as the other layout's letters."""
    pad_on(desktop, start_server, active_pad, ["us", "ru"], "English (US), Russian")
    output = tmp_path / "touchpad.events"
    output.touch()
    server = start_server(["--test-touchpad-output", str(output)], control="touchpad", answer=None)
    assert "the desktop's keyboard layout (the Wayland compositor's; only what every one of them types on " \
        "the same key and level): English (US), Russian (" in server.stderr(), server.stderr()[-800:]
    touchpad = pads(server)
    for text in ("hello", "привет"):
        refused = touchpad.request({"type": "text", "text": text})
        assert refused is not None and refused["code"] == "bad_field", refused
        assert "not on every one" in refused["message"] and "English (US), Russian" in refused["message"], refused
    assert touchpad.request({"type": "text", "text": "1234"}) is None
