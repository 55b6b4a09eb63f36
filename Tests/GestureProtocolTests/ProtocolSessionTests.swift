import Foundation
import GestureEngine
import Testing

@testable import GestureProtocol

@Suite("ProtocolSession: handshake and replies")
struct ProtocolSessionHandshakeTests {
    static func session(_ limits: ProtocolLimits = ProtocolLimits()) -> ProtocolSession {
        ProtocolSession(sessionID: "s1", config: GestureConfig(), limits: limits)
    }

    /// Anything before hello is refused with hello_required and nothing else happens.
    @Test func helloRequired() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(#"{"type":"ping","t":1}"#, at: 10, into: &output)
        session.receive(TestSupport.down(1, t: 2), at: 11, into: &output)
        #expect(TestSupport.errorCodes(output) == ["hello_required", "hello_required"])
        #expect(TestSupport.types(output) == ["error", "error"])
        #expect(session.role == nil)
        #expect(session.clockOffset == nil)
        #expect(output.close == nil)
    }

    /// hello is answered by welcome (protocol 1, session, full config) and reported once.
    @Test func welcome() {
        var config = GestureConfig()
        config.longPressDuration = 650
        var session = ProtocolSession(sessionID: "abc", config: config, limits: ProtocolLimits())
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        #expect(output.helloRole == .touchpad)
        #expect(session.role == .touchpad)
        let frames = TestSupport.frames(output)
        #expect(frames.count == 1)
        #expect(frames.first?.0 == .reply)
        let welcome = frames.first?.1 ?? [:]
        #expect(welcome["type"] as? String == "welcome")
        #expect(welcome["protocol"] as? Int == 1)
        #expect(welcome["session"] as? String == "abc")
        let sent = welcome["config"] as? [String: Any] ?? [:]
        #expect(Set(sent.keys) == Set(GestureConfig.keys))
        #expect(sent["longPressDuration"] as? Int == 650)
    }

    /// A second hello is refused with duplicate_hello and keeps the first role.
    @Test func duplicateHello() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        output.removeAll()
        session.receive(#"{"type":"hello","protocol":1,"role":"observer"}"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["duplicate_hello"])
        #expect(output.helloRole == nil)
        #expect(session.role == .touchpad)
    }

    /// An invalid hello is a bad_field and leaves the connection waiting for a good one.
    @Test func badHello() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(#"{"type":"hello","protocol":2,"role":"touchpad","width":1,"height":1}"#, at: 0, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_field"])
        #expect(session.role == nil)
        session.receive(TestSupport.hello, at: 1, into: &output)
        #expect(session.role == .touchpad)
    }

    /// An observer may ping but nothing else (observer_read_only).
    @Test func observer() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(#"{"type":"hello","protocol":1,"role":"observer"}"#, at: 0, into: &output)
        #expect(output.helloRole == .observer)
        output.removeAll()
        session.receive(
            #"[{"type":"ping","t":5},\#(TestSupport.down(1, t: 6)),{"type":"resize","width":1,"height":1}]"#, at: 9, into: &output
        )
        #expect(TestSupport.types(output) == ["pong", "error", "error"])
        #expect(TestSupport.errorCodes(output) == ["observer_read_only", "observer_read_only"])
        #expect(TestSupport.frames(output)[1].1["index"] as? Int == 1)
    }

    /// ping is answered by pong with t echoed verbatim and the arrival time as serverTime.
    @Test func pong() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        output.removeAll()
        session.receive(#"{"type":"ping","t":1234.5678901234}"#, at: 99.5, into: &output)
        let bytes = output.frames.frameBytes(0)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"type":"pong","t":1234.5678901234,"serverTime":99.5}"#)
    }

    /// The clock offset is the smallest arrival − t seen over accepted messages.
    @Test func clockOffset() {
        var session = Self.session()
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        session.receive(#"{"type":"ping","t":100}"#, at: 5_050, into: &output)
        #expect(session.clockOffset == 4_950)
        session.receive(#"{"type":"ping","t":200}"#, at: 5_170, into: &output)
        #expect(session.clockOffset == 4_950)
        session.receive(#"{"type":"ping","t":300}"#, at: 5_240, into: &output)
        #expect(session.clockOffset == 4_940)
        session.receive(#"{"type":"ping","t":"x"}"#, at: 0, into: &output)
        #expect(session.clockOffset == 4_940)
    }
}

@Suite("ProtocolSession: limits")
struct ProtocolSessionLimitTests {
    static func opened(_ limits: ProtocolLimits = ProtocolLimits()) -> ProtocolSession {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: limits)
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        return session
    }

    /// A message over the size limit closes with 1009; one exactly at the limit is processed.
    @Test func size() {
        var session = Self.opened(ProtocolLimits(maxMessageBytes: 100))
        var output = SessionOutput()
        let ping = #"{"type":"ping","t":1}"#
        let exact = ping + String(repeating: " ", count: 100 - ping.utf8.count)
        session.receive(exact, at: 1, into: &output)
        #expect(TestSupport.types(output) == ["pong"])
        #expect(output.close == nil)
        session.receive(exact + " ", at: 2, into: &output)
        #expect(output.close?.code == .messageTooBig)
    }

    /// Invalid UTF-8 closes with 1007.
    @Test func invalidUTF8() {
        var session = Self.opened()
        var output = SessionOutput()
        let bytes: [UInt8] = Array(#"{"type":"ping","t":1,"c":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        session.receive(text: bytes.span, arrival: 1, into: &output)
        #expect(output.close?.code == .invalidPayload)
        #expect(output.frames.frames.isEmpty)
    }

    /// 20 errors in a row are answered; the 21st closes with 1008; a good message resets the count.
    @Test func errorsInARow() {
        var session = Self.opened()
        var output = SessionOutput()
        for i in 0..<20 { session.receive("nope", at: Double(i), into: &output) }
        session.receive(#"{"type":"ping","t":1}"#, at: 30, into: &output)
        for i in 0..<20 { session.receive(#"{"type":"x"}"#, at: Double(40 + i), into: &output) }
        #expect(output.close == nil)
        #expect(TestSupport.errorCodes(output).count == 40)
        session.receive(#"[{"type":"down"}]"#, at: 70, into: &output)
        #expect(output.close?.code == .policyViolation)
        #expect(TestSupport.errorCodes(output).count == 41)
    }

    /// Errors inside one batch count one by one and stop the batch when the limit is passed.
    @Test func errorsInABatch() {
        var session = Self.opened(ProtocolLimits(maxErrorsInARow: 3))
        var output = SessionOutput()
        session.receive(#"[1,2,3,4,5,6]"#, at: 1, into: &output)
        #expect(TestSupport.errorCodes(output) == ["bad_json", "bad_json", "bad_json", "bad_json"])
        #expect(output.close?.code == .policyViolation)
    }

    /// The rate limit allows a one-second burst and the configured rate sustained, and closes
    /// with 1008 when the rate is exceeded for long enough (arrival times are virtual).
    @Test func rateLimit() {
        let ping = #"{"type":"ping","t":1}"#
        // 2,000 messages/s (one every 0.5 ms) for 10 s: fine.
        var steady = Self.opened()
        var output = SessionOutput()
        for i in 0..<20_000 {
            steady.receive(ping, at: 1_000 + Double(i) * 0.5, into: &output)
            output.removeAll()
        }
        #expect(steady.nextWakeup == nil)
        var fine = Self.opened()
        fine.receive(ping, at: 30_000, into: &output)
        #expect(output.close == nil)

        // 2,500 messages/s: the bucket (2,000) drains at 500/s → closed after about 4 s.
        var fast = Self.opened()
        var closedAt: Double? = nil
        for i in 0..<20_000 {
            let arrival = 1_000 + Double(i) * 0.4
            fast.receive(ping, at: arrival, into: &output)
            if output.close != nil {
                closedAt = arrival
                break
            }
            output.removeAll()
        }
        #expect(output.close?.code == .policyViolation)
        #expect(closedAt.map { $0 > 4_900 && $0 < 5_100 } == true)
    }

    /// Messages sent at the allowed rate while the server was not reading arrive together when
    /// it reads again: they are not a burst. The room lasts about as long as the pause, then the
    /// bucket is back to its one-second capacity.
    @Test func backlogAfterAPauseIsNotABurst() {
        let ping = #"{"type":"ping","t":1}"#
        var output = SessionOutput()
        // 20 s not read at 1,500 messages/s (the limit is 100/s here, so 20 × 100 = 2,000 are fine).
        var paused = Self.opened(ProtocolLimits(maxMessagesPerSecond: 100))
        paused.receive(ping, at: 1_000, into: &output)
        paused.readingPaused(from: 1_000, to: 21_000)
        for i in 0..<1_900 { paused.receive(ping, at: 21_000 + Double(i) * 0.01, into: &output) }
        #expect(output.close == nil)
        // Without the pause the same backlog is a burst.
        var unpaused = Self.opened(ProtocolLimits(maxMessagesPerSecond: 100))
        unpaused.receive(ping, at: 1_000, into: &output)
        for i in 0..<1_900 { unpaused.receive(ping, at: 21_000 + Double(i) * 0.01, into: &output) }
        #expect(output.close?.code == .policyViolation)
    }

    /// The room a pause gave is not kept for later: once it lapses, a burst is a burst again.
    @Test func pauseCreditLapses() {
        let ping = #"{"type":"ping","t":1}"#
        var output = SessionOutput()
        var session = Self.opened(ProtocolLimits(maxMessagesPerSecond: 100))
        session.readingPaused(from: 1_000, to: 11_000)
        for i in 0..<150 { session.receive(ping, at: 11_000 + Double(i), into: &output) }
        #expect(output.close == nil)
        // 30 s later (the pause lasted 10 s): one second's worth again, no more.
        for i in 0..<150 { session.receive(ping, at: 41_000 + Double(i) * 0.01, into: &output) }
        #expect(output.close?.code == .policyViolation)
    }

    /// Batch elements count against the rate limit one by one.
    @Test func rateLimitCountsBatchElements() {
        var session = Self.opened(ProtocolLimits(maxMessagesPerSecond: 100))
        var output = SessionOutput()
        let batch = "[" + Array(repeating: #"{"type":"ping","t":1}"#, count: 60).joined(separator: ",") + "]"
        session.receive(batch, at: 1, into: &output)
        #expect(output.close == nil)
        session.receive(batch, at: 2, into: &output)
        #expect(output.close?.code == .policyViolation)
    }
}

@Suite("ProtocolSession: hello deadline")
struct ProtocolSessionHelloDeadlineTests {
    /// A connection that says no hello within helloTimeoutMs of opening is closed with 1008.
    @Test func closesWithoutHello() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits(helloTimeoutMs: 500))
        session.start(at: 1_000)
        #expect(session.nextWakeup == 1_500)
        var output = SessionOutput()
        session.fire(now: 1_499, into: &output)
        #expect(output.close == nil)
        session.fire(now: 1_500, into: &output)
        #expect(output.close?.code == .policyViolation)
        #expect(output.close?.reason.contains("hello") == true)
    }

    /// A hello in time lifts the deadline; a session never started has none.
    @Test func helloLiftsTheDeadline() {
        var session = ProtocolSession(sessionID: "s", config: GestureConfig(), limits: ProtocolLimits(helloTimeoutMs: 500))
        session.start(at: 0)
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 100, into: &output)
        #expect(session.nextWakeup == nil)
        output.removeAll()
        session.fire(now: 10_000, into: &output)
        #expect(output.close == nil)
        let unstarted = ProtocolSession(sessionID: "u", config: GestureConfig(), limits: ProtocolLimits())
        #expect(unstarted.nextWakeup == nil)
    }
}
