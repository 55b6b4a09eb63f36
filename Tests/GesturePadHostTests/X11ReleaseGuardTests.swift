import Glibc
import Logging
import Testing

@testable import GesturePadHost

/// The release guard's ledger: records in, what to let go of out.
@Suite struct X11ReleaseLedgerTests {
    /// Every record kind survives its line; a chunk cut mid-line keeps the rest for the next.
    @Test func linesRoundTripAcrossChunks() {
        let records: [X11ReleaseLedger.Record] = [
            .held(.button(1)), .held(.binding(250)), .held(.key(37)), .held(.key(250)), .letGo(.button(1)),
        ]
        let text = records.map(X11ReleaseLedger.line(for:)).joined()
        #expect(text.hasPrefix("+b 1\n+m 250\n+k 37\n"))
        var ledger = X11ReleaseLedger()
        let cut = text.index(text.startIndex, offsetBy: 7)
        let rest = ledger.apply(lines: text[..<cut])
        #expect(rest == "+m")
        #expect(ledger.entries == [.button(1)])
        #expect(ledger.apply(lines: Substring(String(rest) + text[cut...])).isEmpty)
        #expect(ledger.entries == [.binding(250), .key(37), .key(250)])
    }

    /// A second press of the same entry is one entry; a release of something not held, and
    /// lines that are not records, change nothing.
    @Test func repeatsAndNoiseChangeNothing() {
        var ledger = X11ReleaseLedger()
        _ = ledger.apply(lines: "+k 50\n+k 50\n-b 3\nhello\n+b 0\n+k 999\n*k 1\n+x 2\n+k\n")
        #expect(ledger.entries == [.key(50)])
        ledger.apply(.letGo(.key(50)))
        #expect(ledger.entries.isEmpty)
    }
}

/// The guard's loop against a real X server: what it was told is held is released once its
/// input ends. (The guard as its own process, killed servers and all: tests/control.)
@Suite(.serialized, .enabled(if: XvfbServer.executable != nil, "skipped: Xvfb is not on PATH (apt-get install xvfb)"))
struct X11ReleaseGuardTests {
    private let logger = Logger(label: "test.x11-guard")

    /// A button and a key held by a backend that then vanishes without releasing them (as a
    /// killed server would) are released by the guard; a spare keycode it was told is bound
    /// is unbound; a button it was told was let go is not touched again.
    @Test func releasesWhatItWasToldAtEndOfInput() throws {
        let server = try XvfbServer.start()
        defer { server.stop() }
        let client = try #require(XClient(name: server.name))
        let display = try X11Display.open(name: server.name)
        let spare = try #require(display.keyboardMapping().unboundKeycodes.last)
        display.fakeButton(1, down: true)
        display.fakeKey(37, down: true)  // Control_L on Xvfb's default map
        display.bind(spare, to: 0x20ac)  // €
        display.sync()
        #expect(client.waitForPointer { $0.mask != 0 }.mask & XClient.allButtons == XClient.button1)
        #expect(client.keycodesDown() == [37])

        let pipe = TestPipe()
        let lines = "+b 1\n+b 3\n-b 3\n+m \(spare)\n+k 37\n"
        _ = lines.withCString { write(pipe.writeEnd, $0, strlen($0)) }
        pipe.closeWriteEnd()
        #expect(X11ReleaseGuard.run(displayName: server.name, input: pipe.readEnd, logger: logger) == 0)

        #expect(client.waitForPointer { $0.mask & XClient.allButtons == 0 }.mask & XClient.allButtons == 0)
        #expect(client.waitForNoKeysDown().isEmpty)
        #expect(client.keyboardMapping(first: spare, count: 1).allSatisfy { $0 == 0 })
        display.close()
    }

    /// A display that cannot be opened: exit status 1, nothing else.
    @Test func noDisplayIsStatusOne() {
        let pipe = TestPipe()
        pipe.closeWriteEnd()
        #expect(X11ReleaseGuard.run(displayName: ":4711", input: pipe.readEnd, logger: logger) == 1)
    }
}
