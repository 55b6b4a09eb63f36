"""What a touchpad does, as the Notify calls the fake desktop portal receives: motion, buttons,
smooth scrolling with finish, zoom steps, keys and text as keysyms, and nothing held after the
page goes away."""
import time

from touch_input import even_steps, spread_steps

FLAT = ["--acceleration", "flat", "--speed", "1"]
SESSION_PREFIX = "/org/freedesktop/portal/desktop/session/"


def of(notifies, member):
    return [n[1:] for n in notifies if n[0] == member]


def assert_balanced(notifies):
    """Every button, keycode and keysym pressed is released, in the calls as recorded."""
    held = {}
    for member, *values in notifies:
        if member in ("NotifyPointerButton", "NotifyKeyboardKeycode", "NotifyKeyboardKeysym"):
            code, state = values
            held[(member, code)] = held.get((member, code), 0) + (1 if state else -1)
            assert held[(member, code)] in (0, 1), f"{member} {code} pressed twice or released unpressed: {notifies}"
    assert all(v == 0 for v in held.values()), f"still held: {[k for k, v in held.items() if v]}"


def test_notify_calls_go_to_the_started_session(portals, start_server, pads):
    """Every Notify call names the session the portal created, with an options vardict."""
    portal = portals()
    pad = pads(start_server(FLAT))
    pad.down({1: (200, 200)})
    pad.up(pad.glide({1: (200, 200)}, even_steps(40, 0, 8)))
    pad.sync()
    assert portal.wait_for(lambda p: p.calls("NotifyPointerMotion"))
    session = portal.calls("SelectDevices")[0]["args"][0]
    for call in portal.calls("NotifyPointerMotion"):
        assert call["args"][0] == session and call["args"][0].startswith(SESSION_PREFIX)
        assert call["args"][1] == {}


def test_motion_sums_to_the_stroke(portals, start_server, pads):
    """With flat acceleration at speed 1, a 300×150 px stroke is NotifyPointerMotion adding up to
    300×150 (within 1 px), in whole pixels."""
    portal = portals()
    pad = pads(start_server(FLAT))
    pad.down({1: (200, 200)})
    end = pad.glide({1: (200, 200)}, even_steps(300, 150, 60))
    pad.sync()
    portal.settle(quiet=0.2)
    pad.up(end)
    motions = of(portal.notifies(), "NotifyPointerMotion")
    dx = sum(m[0] for m in motions)
    dy = sum(m[1] for m in motions)
    assert abs(dx - 300) <= 1 and abs(dy - 150) <= 1, f"moved {dx}, {dy} in {len(motions)} calls"
    assert all(float(v).is_integer() for m in motions for v in m)


def test_taps_and_page_buttons(portals, start_server, pads):
    """A one-finger tap clicks BTN_LEFT (272), two fingers BTN_RIGHT (273); the page's middle
    button clicks BTN_MIDDLE (274): each pressed (1) then released (0)."""
    portal = portals()
    pad = pads(start_server())
    pad.tap({1: (300, 300)})
    assert portal.wait_for(lambda p: ("NotifyPointerButton", 272, 0) in p.notifies(), timeout=3)
    pad.tap({1: (300, 300), 2: (360, 300)})
    assert portal.wait_for(lambda p: ("NotifyPointerButton", 273, 0) in p.notifies(), timeout=3)
    assert pad.request({"type": "button", "button": "middle", "action": "click"}) is None
    assert portal.wait_for(lambda p: ("NotifyPointerButton", 274, 0) in p.notifies(), timeout=3)
    buttons = of(portal.notifies(), "NotifyPointerButton")
    assert buttons == [(272, 1), (272, 0), (273, 1), (273, 0), (274, 1), (274, 0)], buttons


def test_two_finger_scroll_is_smooth_with_finish(portals, start_server, pads):
    """Two fingers moving up 96 px scroll down (natural): NotifyPointerAxis adding up to
    96 / 24 × 10 = 40 units of dy, then one call with finish and no motion; no discrete steps."""
    portal = portals()
    pad = pads(start_server())
    start = {1: (300, 700), 2: (360, 700)}
    pad.down(start)
    pad.up(pad.glide(start, even_steps(0, -96, 24, fingers=(1, 2))))
    assert portal.wait_for(lambda p: any(c["args"][1].get("finish") for c in p.calls("NotifyPointerAxis")))
    calls = portal.calls("NotifyPointerAxis")
    *scroll, last = calls
    assert last["args"][1] == {"finish": True} and last["args"][2:] == [0, 0], last
    assert all(c["args"][1] == {} for c in scroll), "finish before the end of the scroll"
    total = sum(c["args"][3] for c in scroll)
    # The engine's scroll starts past its slop: up to a few px of the stroke are not scrolled.
    assert 32 <= total <= 40.01, f"scrolled {total} units in {len(scroll)} calls"
    assert abs(sum(c["args"][2] for c in scroll)) < 1
    assert portal.calls("NotifyPointerAxisDiscrete") == []


def test_pinch_zooms_with_control_and_discrete_steps(portals, start_server, pads):
    """Spreading two fingers to twice their span holds Control (keycode 29) and turns the wheel
    up in whole steps (NotifyPointerAxisDiscrete axis 0, steps −1), then releases Control."""
    portal = portals()
    pad = pads(start_server())
    start, steps = spread_steps((600, 500), 100, 200, 30)
    pad.down(start)
    end = pad.glide(start, steps)
    pad.up(end)
    assert portal.wait_for(lambda p: ("NotifyKeyboardKeycode", 29, 0) in p.notifies(), timeout=3)
    notifies = portal.notifies()
    discrete = of(notifies, "NotifyPointerAxisDiscrete")
    assert discrete and all(d == (0, -1) for d in discrete), notifies
    members = [n[0] for n in notifies if n[0] != "NotifyPointerMotion"]
    assert members[0] == "NotifyKeyboardKeycode" and members[-1] == "NotifyKeyboardKeycode", members
    assert portal.calls("NotifyPointerAxis") == [], "zoom steps went as smooth scrolling too"


def test_text_and_keys(portals, start_server, pads):
    """Without a Wayland display the desktop's layout is unknown: `text` "hé中\\n" is refused
    whole (bad_field naming é and 中, nothing sent); "hi\\n" is keysyms 0x68, 0x69, Return, each
    pressed and released; `key` Enter is evdev keycode 28; "c" with Control is keycode 29 around
    keysym 0x63. (Which keysym a character takes from a known layout: tests/gnome.)"""
    portal = portals()
    pad = pads(start_server())
    refused = pad.request({"type": "text", "text": "hé中\n"})
    assert refused is not None and refused["code"] == "bad_field", refused
    assert '"é" (U+00E9), "中" (U+4E2D)' in refused["message"] and "not known" in refused["message"], refused
    assert pad.request({"type": "text", "text": "hi\n"}) is None
    assert pad.request({"type": "key", "key": "Enter"}) is None
    assert pad.request({"type": "key", "key": "c", "modifiers": ["Control"]}) is None
    assert portal.wait_for(lambda p: ("NotifyKeyboardKeycode", 29, 0) in p.notifies(), timeout=3)
    keys = [n for n in portal.notifies() if n[0].startswith("NotifyKeyboard")]
    assert keys == [
        ("NotifyKeyboardKeysym", 0x68, 1), ("NotifyKeyboardKeysym", 0x68, 0),
        ("NotifyKeyboardKeysym", 0x69, 1), ("NotifyKeyboardKeysym", 0x69, 0),
        ("NotifyKeyboardKeysym", 0xFF0D, 1), ("NotifyKeyboardKeysym", 0xFF0D, 0),
        ("NotifyKeyboardKeycode", 28, 1), ("NotifyKeyboardKeycode", 28, 0),
        ("NotifyKeyboardKeycode", 29, 1), ("NotifyKeyboardKeysym", 0x63, 1),
        ("NotifyKeyboardKeysym", 0x63, 0), ("NotifyKeyboardKeycode", 29, 0),
    ], keys


def test_nothing_held_after_disconnect(portals, start_server, pads):
    """A page that holds a button and drags, then goes away: the button is released at once, and
    every press the portal saw has its release."""
    portal = portals()
    server = start_server()
    pad = pads(server)
    assert pad.request({"type": "button", "button": "left", "action": "down"}) is None
    pad.down({1: (200, 200)})
    pad.glide({1: (200, 200)}, even_steps(50, 0, 10))
    pad.sync()
    assert portal.wait_for(lambda p: ("NotifyPointerButton", 272, 1) in p.notifies())
    pad.close()
    assert portal.wait_for(lambda p: ("NotifyPointerButton", 272, 0) in p.notifies(), timeout=2)
    time.sleep(0.2)
    assert_balanced(portal.notifies())
    assert server.process.poll() is None, "the server stopped"


def test_notify_calls_keep_their_order_through_a_threaded_portal(portals, start_server, pads):
    """A portal that passes each call on from a thread of its own (as xdg-desktop-portal does,
    up to 3 ms late here) still delivers a click, keys and text in the order they were made:
    each Notify call goes after the answer to the one before."""
    portal = portals("--forward-delay", "3")
    pad = pads(start_server())
    pad.tap({1: (300, 300), 2: (360, 300)})
    assert pad.request({"type": "key", "key": "c", "modifiers": ["Control"]}) is None
    assert pad.request({"type": "text", "text": "Hello"}) is None
    assert portal.wait_for(lambda p: ("NotifyKeyboardKeysym", 0x6F, 0) in p.delivered(), timeout=5)
    assert portal.delivered() == [
        ("NotifyPointerButton", 273, 1), ("NotifyPointerButton", 273, 0),
        ("NotifyKeyboardKeycode", 29, 1), ("NotifyKeyboardKeysym", 0x63, 1),
        ("NotifyKeyboardKeysym", 0x63, 0), ("NotifyKeyboardKeycode", 29, 0),
        *[("NotifyKeyboardKeysym", ord(c), state) for c in "Hello" for state in (1, 0)],
    ], portal.delivered()
