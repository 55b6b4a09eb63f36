import CUInput
import Foundation
import Logging
import Testing

@testable import GesturePadHost

/// The layout uinput and touchpad type through when none is named: the desktop's, read from a
/// real X server (Xvfb; the layout names set on its root window as a desktop's keyboard
/// settings do); without a desktop to ask, US.
@Suite(.serialized, .enabled(if: XvfbServer.executable != nil, "skipped: Xvfb is not on PATH (apt-get install xvfb)"))
struct DesktopLayoutDetectionTests {
    private let logger = Logger(label: "test.layout")

    @Test func theXServersLayout() throws {
        let server = try XvfbServer.start()
        defer { server.stop() }
        let client = try #require(XClient(name: server.name))
        client.setRulesNames(["evdev", "pc105", "de", "", ""])
        let display = try X11Display.open(name: server.name)
        #expect(display.keyboardLayoutName()! == ("de", ""))
        display.close()
        let layout = try EvdevLayout.forDesktop(named: nil, environment: ["DISPLAY": server.name], logger: logger)
        #expect(layout.name == "German")
        #expect(layout.stroke("z") == EvdevKeys.Stroke(code: EvdevCode(KEY_Y), shifted: false))

        // Several groups: the one locked now (the first) is the one typed with, with its variant.
        client.setRulesNames(["evdev", "pc105", "fr,de", "bepo,nodeadkeys", "grp:alt_shift_toggle"])
        let again = try X11Display.open(name: server.name)
        #expect(again.keyboardLayoutName()! == ("fr", "bepo"))
        again.close()
        let bepo = try EvdevLayout.forDesktop(named: nil, environment: ["DISPLAY": server.name], logger: logger)
        #expect(bepo.stroke("b") == EvdevKeys.Stroke(code: EvdevCode(KEY_Q), shifted: false))
    }

    /// A name given wins over the desktop's; no desktop to ask (no DISPLAY, a Wayland socket
    /// that is not there): US.
    @Test func namedThenNone() throws {
        let server = try XvfbServer.start()
        defer { server.stop() }
        try #require(XClient(name: server.name)).setRulesNames(["evdev", "pc105", "de", "", ""])
        let named = try EvdevLayout.forDesktop(named: "fr", environment: ["DISPLAY": server.name], logger: logger)
        #expect(named.name == "French")
        let none = try EvdevLayout.forDesktop(
            named: nil, environment: ["WAYLAND_DISPLAY": "gesturepad-test-no-such-socket"], logger: logger)
        #expect(none == .us)
    }
}
