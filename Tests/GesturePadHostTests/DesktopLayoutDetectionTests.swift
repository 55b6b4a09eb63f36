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
        #expect(display.keyboardLayoutNames()! == ("de", ""))
        display.close()
        let layout = try EvdevLayout.forDesktop(named: nil, environment: ["DISPLAY": server.name], logger: logger)
        #expect(layout.name == "German")
        #expect(layout.stroke("z") == EvdevKeys.Stroke(code: EvdevCode(KEY_Y), shifted: false))

        // Several groups, whichever is locked: only what every one types on the same key and level.
        client.setRulesNames(["evdev", "pc105", "us,de", ",nodeadkeys", "grp:alt_shift_toggle"])
        let again = try X11Display.open(name: server.name)
        #expect(again.keyboardLayoutNames()! == ("us,de", ",nodeadkeys"))
        again.close()
        let both = try EvdevLayout.forDesktop(named: nil, environment: ["DISPLAY": server.name], logger: logger)
        #expect(both.names.count == 2)
        #expect(both.stroke("a") == EvdevKeys.Stroke(code: EvdevCode(KEY_A), shifted: false))
        #expect(both.stroke("z") == nil && both.stroke("y") == nil)
        #expect(both.table?.keysym(for: "z") == nil)
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
