import GestureControl
import Logging
import Testing

@testable import GesturePadHost

/// Opening errors, as one line for the user.
@Suite struct X11OpenErrorTests {
    /// No server at that display: the message names the display.
    @Test func noServer() {
        do {
            _ = try X11Backend.open(displayName: ":4711")
            Issue.record("opened a display that does not exist")
        } catch let error as ControlBackendError {
            #expect(error.message.hasPrefix("cannot open X display :4711: "))
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// A server without XTEST is refused.
    @Test(.enabled(if: XvfbServer.executable != nil, "skipped: Xvfb is not on PATH"))
    func noXTest() throws {
        let server = try XvfbServer.start(arguments: ["-extension", "XTEST"])
        defer { server.stop() }
        #expect(throws: ControlBackendError.x11("the X server has no XTEST extension")) {
            _ = try X11Backend.open(displayName: server.name)
        }
    }
}

/// The x11 backend against a real X server (Xvfb, started per test), checked by a second
/// client as an application would see it. Skipped where Xvfb is not installed.
@Suite(.serialized, .enabled(if: XvfbServer.executable != nil, "skipped: Xvfb is not on PATH (apt-get install xvfb)"))
struct X11BackendTests {
    private let logger = Logger(label: "test.x11")

    /// Relative motion moves the pointer one to one; buttons press and release; releaseAll
    /// and stop release what is held.
    @Test func pointerAndButtons() throws {
        let server = try XvfbServer.start()
        defer { server.stop() }
        let client = try #require(XClient(name: server.name))
        client.warpPointer(x: 100, y: 100)
        let backend = try X11Backend.open(displayName: server.name, logger: logger)
        #expect(backend.name == "x11")
        #expect(backend.capabilities.characters == .anyUnicode && !backend.capabilities.takesContacts)

        backend.perform([.motion(dx: 30, dy: -20), .motion(dx: 1, dy: 2)][...])
        #expect(client.waitForPointer { $0.x == 131 && $0.y == 82 } == .init(x: 131, y: 82, mask: 0))

        backend.perform([.button(.left, .down)][...])
        #expect(client.waitForPointer { $0.mask != 0 }.mask == XClient.button1)
        backend.perform([.button(.left, .up), .button(.right, .down)][...])
        #expect(client.waitForPointer { $0.mask == XClient.button3 }.mask == XClient.button3)
        backend.releaseAll()
        #expect(client.waitForPointer { $0.mask & XClient.allButtons == 0 }.mask & XClient.allButtons == 0)

        backend.perform([.button(.middle, .down)][...])
        #expect(client.waitForPointer { $0.mask != 0 }.mask == XClient.button2)
        backend.stop()
        #expect(client.waitForPointer { $0.mask & XClient.allButtons == 0 }.mask & XClient.allButtons == 0)
    }

    /// Whole detents click buttons 4 (up), 5 (down), 6 (left), 7 (right); halves add up.
    @Test func wheel() throws {
        let server = try XvfbServer.start()
        defer { server.stop() }
        let client = try #require(XClient(name: server.name))
        #expect(client.openInputWindow(width: 1280, height: 800))
        let backend = try X11Backend.open(displayName: server.name, logger: logger)
        defer { backend.stop() }
        backend.perform(
            [
                .wheel(dx: 0, dy: 1), .wheel(dx: 0, dy: -1), .wheel(dx: 1, dy: 0), .wheel(dx: -1, dy: 0),
                .wheel(dx: 0, dy: 0.5), .wheelStop, .wheel(dx: 0, dy: 0.5), .wheel(dx: 0, dy: 2),
            ][...])
        #expect(client.buttonPresses(count: 7) == [5, 4, 7, 6, 5, 5, 5])
    }

    /// Text and keys arrive as the keysyms they mean, non-ASCII through spare keycodes; the
    /// keymap is as it was once the backend stops.
    @Test func keysAndText() throws {
        let server = try XvfbServer.start()
        defer { server.stop() }
        let client = try #require(XClient(name: server.name))
        #expect(client.openInputWindow(width: 1280, height: 800))
        let mappingBefore = client.keyboardMapping()
        let backend = try X11Backend.open(displayName: server.name, logger: logger)

        backend.perform([.text("aB é中\n")][...])
        backend.perform(KeyCombination(modifiers: [.control], key: .character("c")).actions[...])
        backend.perform([.key(.named(.f5), .down), .key(.named(.f5), .up), .text("中é")][...])
        #expect(backend.worker.waitUntilDone())

        let shiftMask = UInt32(1 << 0)
        let controlMask = UInt32(1 << 2)
        let modifierKeysyms: Set<UInt> = [0xFFE1, 0xFFE3]
        let presses = client.keyPresses(count: 12)
        let typed = presses.map { (client.keysym(keycode: $0.keycode, shifted: $0.state & shiftMask != 0), $0.state) }
            .filter { !modifierKeysyms.contains($0.0) }
        #expect(typed.map(\.0) == [0x61, 0x42, 0x20, 0xE9, 0x0100_4E2D, 0xFF0D, 0x63, 0xFFC2, 0x0100_4E2D, 0xE9])
        #expect(typed.count > 6 && typed[6].1 & controlMask != 0)

        backend.stop()
        #expect(client.keyboardMapping() == mappingBefore)
        #expect(client.waitForNoKeysDown().isEmpty)
    }

    /// releaseAll lets go of held keys (and a Shift added for a capital); so does stop.
    @Test func releaseAllReleasesKeys() throws {
        let server = try XvfbServer.start()
        defer { server.stop() }
        let client = try #require(XClient(name: server.name))
        let backend = try X11Backend.open(displayName: server.name, logger: logger)
        backend.perform([.key(.named(.control), .down), .key(.character("X"), .down)][...])
        #expect(backend.worker.waitUntilDone())
        let deadline = ContinuousClock.now + .seconds(3)
        var down = client.keycodesDown()
        while down.count < 3, ContinuousClock.now < deadline { down = client.keycodesDown() }
        #expect(down.count == 3)
        backend.releaseAll()
        #expect(client.waitForNoKeysDown().isEmpty)

        backend.perform([.key(.named(.alt), .down)][...])
        #expect(backend.worker.waitUntilDone())
        backend.stop()
        #expect(client.waitForNoKeysDown().isEmpty)
    }

    /// The X server going away does not end the process: actions are dropped, stop returns.
    @Test func survivesTheServerGoingAway() throws {
        let server = try XvfbServer.start()
        let backend = try X11Backend.open(displayName: server.name, logger: logger)
        backend.perform([.key(.named(.shift), .down)][...])
        #expect(backend.worker.waitUntilDone())
        server.stop()
        backend.perform([.motion(dx: 5, dy: 5), .text("é"), .button(.left, .down)][...])
        #expect(backend.worker.waitUntilDone())
        backend.stop()
    }
}
