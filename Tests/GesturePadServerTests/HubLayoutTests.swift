import GestureControl
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The desktop's keyboard layout as a hub input (`desktopLayoutChanged`): a value the hub keeps
/// in its `ControlContext` and hands every session, the one the backend types with.
@Suite struct HubLayoutTests {
    static let french = DesktopLayout.Table(keysyms: [0x68: 0x68, 0xE9: 0xE9], names: ["French"])

    static func harness(_ backend: SwitchableBackend, characters: ControlCapabilities.Characters) -> HubHarness {
        HubHarness(backend: backend) { configuration in
            configuration.control = ControlContext(
                status: .active(backend: "portal"), capabilities: .init(characters: characters))
        }
    }

    /// Unknown, the layout types ASCII only; once the backend reports a table, an open
    /// touchpad and one that opens later type what it has, and are refused what it lacks; the
    /// pages are told nothing of it, and the same table again changes nothing.
    @Test func reportedLayoutReachesEverySession() {
        let backend = SwitchableBackend()
        let h = Self.harness(backend, characters: .desktopLayout(nil))
        let pad = ControlStatusHubTests.touchpad(h)
        h.send(pad, #"{"type":"text","text":"é"}"#, at: 1)
        #expect(h.drain(pad).frames.first?.contains("not known (no Wayland keymap)") == true)
        #expect(h.handle(.desktopLayoutChanged(Self.french)).isEmpty)
        #expect(h.hub.control.capabilities.characters == .desktopLayout(Self.french))
        #expect(h.handle(.desktopLayoutChanged(Self.french)).isEmpty)
        h.send(pad, #"{"type":"text","text":"hé"}"#, at: 2)
        #expect(backend.actions == [.text("hé")])
        let late = ControlStatusHubTests.touchpad(h)
        h.send(late, #"{"type":"text","text":"éx"}"#, at: 3)
        #expect(h.drain(late).frames.first?.contains("not on the desktop's keyboard layout (French)") == true)
        h.send(late, #"{"type":"text","text":"é"}"#, at: 4)
        #expect(backend.actions == [.text("hé"), .text("é")])
        #expect(h.drain(pad).frames.allSatisfy { $0.contains(#""type":"command""#) })
    }

    /// A backend that does not follow the desktop's layout keeps its own characters.
    @Test func otherBackendsIgnoreIt() {
        let h = Self.harness(SwitchableBackend(), characters: .anyUnicode)
        h.handle(.desktopLayoutChanged(Self.french))
        #expect(h.hub.control.capabilities.characters == .anyUnicode)
    }
}
