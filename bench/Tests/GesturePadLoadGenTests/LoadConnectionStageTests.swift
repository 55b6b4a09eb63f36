import Testing

@testable import GesturePadLoadGen

/// A load-generator connection's lifecycle (`LoadConnectionStage.after`).
struct LoadConnectionStageTests {
    private func walk(_ events: [LoadConnectionStage.Event]) -> [LoadConnectionStage] {
        var stage = LoadConnectionStage.connecting
        return events.map {
            stage = stage.after($0)
            return stage
        }
    }

    /// A gesture connection greets, waits for its welcome, runs, and closes on the server's close frame.
    @Test func gestureConnectionLifecycle() {
        #expect(
            walk([.established(echo: false), .helloWritten, .welcomed, .peerClosing, .closed]) == [
                .greeting, .awaitingWelcome, .running, .closing, .closed,
            ])
    }

    /// An echo connection runs as soon as its handshake completes (no hello, no welcome).
    @Test func echoConnectionRunsAtOnce() {
        #expect(walk([.established(echo: true)]) == [.running])
    }

    /// Events out of turn leave the stage as it is: a welcome before the hello, a second hello or welcome.
    @Test func eventsOutOfTurnAreIgnored() {
        #expect(walk([.established(echo: false), .welcomed]) == [.greeting, .greeting])
        #expect(
            walk([.established(echo: false), .helloWritten, .helloWritten]) == [.greeting, .awaitingWelcome, .awaitingWelcome])
        #expect(walk([.established(echo: true), .welcomed, .established(echo: true)]) == [.running, .running, .running])
        #expect(walk([.welcomed, .helloWritten]) == [.connecting, .connecting])
    }

    /// A connection error before the handshake fails the connection; nothing brings it back.
    @Test func failedIsFinal() {
        #expect(walk([.connectionError, .established(echo: true), .closed]) == [.failed, .failed, .failed])
    }

    /// Closed is final: a late close frame or error does not change it.
    @Test func closedIsFinal() {
        #expect(
            walk([.established(echo: true), .closed, .peerClosing, .connectionError]) == [.running, .closed, .closed, .closed])
    }

    /// The connecting phase waits only for the stages still on their way to running.
    @Test func settledStages() {
        let stages: [LoadConnectionStage] = [.connecting, .greeting, .awaitingWelcome, .running, .closing, .closed, .failed]
        #expect(stages.filter(\.isSettled) == [.running, .closing, .closed, .failed])
    }
}
