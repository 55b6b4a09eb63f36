import Testing

@testable import GesturePadLoadGen

/// `LoadRun` driven as the lws bridge drives it, on a virtual clock: the connections' stages,
/// the writes they ask for, and the phase deadlines `tick` hands the bridge's wake timer.
struct LoadRunTests {
    private static let traces: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Tests/GesturePadLoadGenTests/LoadRunTests.swift, bench/
        return parts.joined(separator: "/") + "/Tests/Fixtures/traces"
    }()
    private static let headroom = 16
    private static let welcome = Array(#"{"type":"welcome","protocol":1,"session":"s"}"#.utf8)

    private func makeRun(connections: Int, server: LoadOptions.Server = .gesture, now: Double = 100) throws -> LoadRun {
        var options = LoadOptions()
        options.connections = connections
        options.server = server
        options.connectTimeout = 20
        options.warmup = 1
        options.seconds = 5
        options.window = 2
        let script = try TraceScript(directory: Self.traces, names: ["tap_single", "drag_slow"])
        return LoadRun(options: options, script: script, headroom: Self.headroom, now: now)
    }

    /// What `writable` put after the headroom, as text.
    private func written(_ run: LoadRun) -> String {
        String(decoding: run.sendBuffer[Self.headroom...], as: UTF8.self)
    }

    private func deliver(_ bytes: [UInt8], to i: Int, of run: LoadRun, now: Double) {
        run.scratch = bytes
        run.received(i, first: true, final: true, now: now)
    }

    /// A gesture connection asks to write once, writes its hello once, and sends nothing more before its welcome.
    @Test func helloOnceThenWaitForWelcome() throws {
        let run = try makeRun(connections: 1)
        run.established(0, now: 100.1)
        #expect(run.wake == [0])
        #expect(run.connections[0].stage == .greeting)
        #expect(run.writable(0, now: 100.2))
        #expect(written(run).hasPrefix(#"{"type":"hello""#))
        #expect(run.connections[0].stage == .awaitingWelcome)
        #expect(!run.writable(0, now: 100.3))
        deliver(Self.welcome, to: 0, of: run, now: 100.4)
        #expect(run.connections[0].stage == .running)
        #expect(run.readyCount == 1)
    }

    /// Connecting waits for every connection until the connect deadline, then warms up; the
    /// deadline handed to the wake timer follows each phase.
    @Test func phasesEndAtTheirDeadlines() throws {
        let run = try makeRun(connections: 2)
        #expect(run.tick(now: 100) == .wait(deadline: 120))
        run.established(0, now: 100.1)
        _ = run.writable(0, now: 100.1)
        deliver(Self.welcome, to: 0, of: run, now: 100.2)
        // One connection still connecting: the phase waits for it, or for the deadline.
        #expect(run.tick(now: 119.9) == .wait(deadline: 120))
        run.wake.removeAll()
        #expect(run.tick(now: 120) == .wait(deadline: 121))
        #expect(run.wake == [0])  // the running one starts sending
        #expect(run.tick(now: 120.5) == .wait(deadline: 121))
        #expect(run.tick(now: 121) == .wait(deadline: 126))
        #expect(run.tick(now: 125.9) == .wait(deadline: 126))
        #expect(run.tick(now: 126) == .finished)
        #expect(run.measurements.measuredSeconds == 5)
        #expect(run.readyCount == 1)
        #expect(run.tick(now: 127) == .finished)
    }

    /// Connecting ends early once every connection has settled (running or failed).
    @Test func connectingEndsWhenEverySettled() throws {
        let run = try makeRun(connections: 2, server: .echo)
        run.established(0, now: 100.1)
        #expect(run.tick(now: 100.2) == .wait(deadline: 120))
        run.failed(1, now: 100.25)
        #expect(run.tick(now: 100.5) == .wait(deadline: 101.5))
        #expect(run.failedCount == 1)
        #expect(run.readyCount == 1)
    }

    /// A running connection sends frames while the run sends, up to its window of unacknowledged frames.
    @Test func runningConnectionSendsFramesInItsWindow() throws {
        let run = try makeRun(connections: 1, server: .echo)
        run.established(0, now: 100.1)
        _ = run.tick(now: 100.2)
        #expect(run.writable(0, now: 100.3))
        #expect(written(run).hasPrefix(#"[{"type":"down""#))
        #expect(run.writable(0, now: 100.4))
        #expect(!run.writable(0, now: 100.5))  // two in flight: the window is full
        deliver([UInt8](repeating: 0x20, count: 12), to: 0, of: run, now: 100.6)  // an echo acknowledges one
        #expect(run.writable(0, now: 100.7))
    }

    /// An echo connection established late (the run already sending) starts sending at once.
    @Test func lateEchoConnectionStartsSending() throws {
        let run = try makeRun(connections: 2, server: .echo)
        run.established(0, now: 100.1)
        _ = run.tick(now: 120)
        run.wake.removeAll()
        run.established(1, now: 120.5)
        #expect(run.wake == [1])
    }

    /// The server's close frame is counted by code, stops the connection sending, and it no longer counts as ready.
    @Test func serverCloseStopsTheConnection() throws {
        let run = try makeRun(connections: 1, server: .echo)
        run.established(0, now: 100.1)
        _ = run.tick(now: 100.2)
        run.peerClosing(0, code: 1008, now: 100.3)
        #expect(run.connections[0].stage == .closing)
        #expect(!run.writable(0, now: 100.4))
        #expect(run.readyCount == 0)
        run.closed(0, now: 100.5)
        #expect(run.connections[0].stage == .closed)
        #expect(run.measurements.closeCodes == [1008: 1])
    }
}
