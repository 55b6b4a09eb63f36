import GestureEngine
import GestureProtocol
import Testing

@testable import GesturePadServer

@Suite struct ConnectionHubTransportTests {
    /// A binary frame is refused with 1003 at once: the queued frames are dropped, the close is
    /// the next (and last) thing written, and what follows in the input is ignored.
    @Test func binaryFrameCloses1003() {
        let harness = HubHarness()
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        harness.receive(id, [1, 2, 3], isBinary: true)
        harness.send(id, #"{"type":"ping","t":1}"#)
        #expect(harness.transport.closesStarted == [id])
        let (frames, close) = harness.drain(id)
        #expect(frames.isEmpty)
        #expect(close == .close(id, code: .unsupportedData, reason: "binary frames are not accepted"))
        #expect(harness.drain(id).close == nil)
    }

    /// Fragments accumulate; crossing the size limit closes with 1009 before the bytes are kept,
    /// and later fragments of the same message are not kept either.
    @Test func oversizeAcrossFragmentsCloses1009() {
        let harness = HubHarness { $0.limits.maxMessageBytes = 10 }
        let id = harness.open()
        harness.receive(id, Array("123456".utf8), isFinal: false)
        #expect(harness.transport.closesStarted.isEmpty)
        for _ in 0..<3 { harness.receive(id, Array("78901".utf8), isFinal: false) }
        #expect(harness.hub.connections[id]?.message.isEmpty == true)
        #expect(harness.transport.closesStarted == [id])
        guard case .close(_, let code, _) = harness.drain(id).close else {
            Issue.record("expected a close")
            return
        }
        #expect(code == .messageTooBig)
    }

    /// A connection whose reading was paused (its queue was full) reads again once its close is
    /// handed to the transport, so lws can see the peer's answering Close.
    @Test func closeResumesPausedReading() {
        let harness = HubHarness { $0.outboundHighWatermark = 100 }
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        #expect(harness.transport.receiving.last.map { $0.1 } == false)
        harness.receive(id, [0], isBinary: true)
        let (frames, close) = harness.drain(id)
        #expect(frames.isEmpty)
        #expect(close == .close(id, code: .unsupportedData, reason: "binary frames are not accepted"))
        #expect(harness.transport.receiving.last.map { $0.1 } == true)
    }

    /// A message that ends inside a UTF-8 sequence closes with 1007.
    @Test func truncatedUTF8Closes1007() {
        let harness = HubHarness()
        let id = harness.open()
        harness.receive(id, [0x22, 0x61, 0x62, 0xC3], isFinal: false)
        harness.receive(id, [])
        guard case .close(_, let code, _) = harness.drain(id).close else {
            Issue.record("expected a close")
            return
        }
        #expect(code == .invalidPayload)
    }

    /// Shutdown closes every connection with 1001 (once), refuses nothing already queued, and counts stay.
    @Test func shutdownClosesWith1001Once() {
        let harness = HubHarness()
        let a = harness.open(), b = harness.open()
        harness.handle(.shutdown)
        #expect(Set(harness.transport.closesStarted) == [a, b])
        for id in [a, b] {
            #expect(harness.drain(id).close == .close(id, code: .goingAway, reason: "server shutting down"))
            #expect(harness.drain(id).close == nil)
        }
        harness.handle(.closed(a, now: 0))
        harness.handle(.closed(b, now: 0))
        #expect(harness.hub.connections.count == 0)
    }

    /// A close the transport started by itself (lws's 1002, the peer's Close) drops the queued
    /// frames: nothing is written after it, and later input and timers produce nothing.
    @Test func closeUnderwayDropsQueuedFramesAndStopsTheSession() {
        let harness = HubHarness()
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        harness.send(id, HubHarness.pointer("down", x: 100, y: 100, t: 1000), at: 1000)
        #expect(harness.transport.armed[id] != nil)
        #expect(harness.handle(.closeFrameSeen(id)) == [.cancelWakeup(id), .hangUp(id)])
        #expect(harness.transport.armed[id] == nil)
        #expect(harness.transport.schedules.last.map { $0.1 == nil } == true)
        harness.send(id, #"{"type":"ping","t":5}"#, at: 1010)
        harness.fire(id, at: 2000)
        let (frames, close) = harness.drain(id)
        #expect(frames.isEmpty && close == nil)
        #expect(harness.hub.connections.count == 1)  // until lws reports it closed
    }

    /// Conformance mode (test only): a text message comes back as it came, fragments joined; text
    /// that is not UTF-8 closes with 1007; no hello deadline is armed.
    @Test func conformanceEchoSendsTextBack() {
        let harness = HubHarness { $0.conformanceEcho = true }
        let id = harness.open()
        #expect(harness.transport.armed[id] == nil)
        let text = Array("not a gesture: wörld".utf8)
        harness.receive(id, Array(text[..<17]), isFinal: false)
        harness.receive(id, Array(text[17...]))
        #expect(harness.drain(id).frames == ["not a gesture: wörld"])
        harness.receive(id, [0x61, 0xFF])
        let (frames, close) = harness.drain(id)
        #expect(frames.isEmpty)
        #expect(close == .close(id, code: .invalidPayload, reason: "text frame is not valid UTF-8"))
    }

    /// Unknown ids are ignored everywhere (a stale lws callback cannot crash the hub).
    @Test func unknownIdsAreIgnored() {
        let harness = HubHarness()
        harness.send(42, "{}")
        harness.fire(42, at: 1)
        harness.handle(.closed(42, now: 1))
        #expect(harness.drain(42).frames.isEmpty)
    }
}

/// These need the real ProtocolSession (welcome, gestures): they fail against the stub.
@Suite struct ConnectionHubRoutingTests {
    /// A touchpad gets its welcome; its gestures go to itself, to observers and to the sinks.
    @Test func touchpadGesturesReachObserversAndSinks() throws {
        let harness = HubHarness()
        let observer = harness.open(), touchpad = harness.open()
        harness.send(observer, HubHarness.observerHello)
        #expect(harness.drain(observer).frames.first?.contains(#""type":"welcome""#) == true)
        harness.send(touchpad, HubHarness.touchpadHello, at: 10)
        harness.send(touchpad, HubHarness.pointer("down", x: 50, y: 60, t: 100), at: 20)
        harness.send(touchpad, HubHarness.pointer("up", x: 50, y: 60, t: 150), at: 70)
        let own = harness.drain(touchpad).frames
        #expect(own.first?.contains(#""type":"welcome""#) == true)
        let ownGestures = own.filter { $0.contains(#""type":"gesture""#) }
        #expect(ownGestures.contains { $0.contains(#""gesture":"tap""#) })
        let seen = harness.drain(observer).frames
        #expect(seen.first == #"{"type":"session","session":"\#(touchpad)","state":"open"}"#)
        #expect(Array(seen.dropFirst()) == ownGestures)
        #expect(harness.sink.sessions.first! == ("\(touchpad)", true))
        #expect(harness.sink.events.map(\.event.gesture).contains(.tap))
        #expect(harness.sink.events.allSatisfy { $0.session == "\(touchpad)" })
    }

    /// Closing a touchpad mid-drag cancels the drag for observers and sinks, then says closed.
    @Test func closeMidDragCancels() throws {
        let harness = HubHarness()
        let observer = harness.open(), touchpad = harness.open()
        harness.send(observer, HubHarness.observerHello)
        harness.send(touchpad, HubHarness.touchpadHello)
        harness.send(touchpad, HubHarness.pointer("down", x: 100, y: 100, t: 1000), at: 1000)
        for step in 1...5 {
            harness.send(
                touchpad, HubHarness.pointer("move", x: 100 + Double(step) * 10, y: 100, t: 1000 + Double(step) * 16),
                at: 1000 + Double(step) * 16)
        }
        _ = harness.drain(observer)
        harness.handle(.closed(touchpad, now: 1200))
        let after = harness.drain(observer).frames
        #expect(after.contains { $0.contains(#""gesture":"drag""#) && $0.contains(#""phase":"cancelled""#) })
        #expect(after.contains { $0.contains(#""gesture":"end""#) && $0.contains(#""reason":"cancel""#) })
        #expect(after.last == #"{"type":"session","session":"\#(touchpad)","state":"closed"}"#)
        #expect(harness.sink.events.last?.event.gesture == .end)
        #expect(harness.sink.sessions.last! == ("\(touchpad)", false))
    }

    /// A press arms the timer at the long-press deadline; firing it yields longPress began.
    @Test func timerArmsAndFiresLongPress() throws {
        let harness = HubHarness()
        let touchpad = harness.open()
        harness.send(touchpad, HubHarness.touchpadHello, at: 0)
        harness.send(touchpad, HubHarness.pointer("down", x: 100, y: 100, t: 5000), at: 7000)
        let armed = try #require(harness.transport.schedules.last)
        #expect(armed.0 == touchpad)
        let wakeup = try #require(armed.1)
        #expect(wakeup > 7000 && wakeup <= 7500)
        var now = wakeup
        while !harness.sink.events.contains(where: { $0.event.gesture == .longPress }), now < 8000 {
            harness.fire(touchpad, at: now)
            now = (harness.transport.schedules.last?.1 ?? now + 1)
        }
        let longPress = try #require(harness.sink.events.first { $0.event.gesture == .longPress })
        #expect(longPress.event.phase == .began && longPress.event.t == 5500)
    }

    /// A connection that stops reading is paused past the high watermark and closed past the hard cap.
    @Test func backPressureThenSlowConsumerClose() {
        let harness = HubHarness {
            $0.outboundHighWatermark = 400
            $0.outboundLowWatermark = 100
            $0.outboundHardCap = 2_000
        }
        let touchpad = harness.open()
        harness.send(touchpad, HubHarness.touchpadHello)
        var t = 1.0
        while harness.transport.receiving.isEmpty && t < 100 {
            harness.send(touchpad, #"{"type":"ping","t":\#(t)}"#, at: t)
            t += 1
        }
        #expect(harness.transport.receiving.first.map { $0.1 } == false)
        // Reading it all resumes input.
        _ = harness.drain(touchpad)
        #expect(harness.transport.receiving.last.map { $0.1 } == true)
        // Never reading while the queue grows past the hard cap closes it.
        while harness.transport.closesStarted.isEmpty && t < 500 {
            harness.send(touchpad, #"{"type":"ping","t":\#(t)}"#, at: t)
            t += 1
        }
        #expect(harness.transport.closesStarted == [touchpad])
        let (frames, close) = harness.drain(touchpad)
        #expect(frames.isEmpty)
        guard case .close(_, let code, _) = close else {
            Issue.record("expected a close")
            return
        }
        #expect(code == .policyViolation)
    }

    /// Input that waited while the hub had paused reading (the peer did not read its replies) is
    /// not counted as a burst when reading resumes: the session hears how long the pause was.
    @Test func backlogAfterBackPressureIsNotABurst() {
        let harness = HubHarness {
            $0.outboundHighWatermark = 400
            $0.outboundLowWatermark = 100
            $0.limits.maxMessagesPerSecond = 100
        }
        let touchpad = harness.open()
        harness.send(touchpad, HubHarness.touchpadHello, at: 1_000)
        #expect(harness.transport.receiving.last.map { $0.1 } == false)  // the welcome is over 400 bytes
        // 20 s later the peer reads; 1,500 messages it sent meanwhile (75 a second) arrive at once.
        _ = harness.drain(touchpad, at: 21_000)
        #expect(harness.transport.receiving.last.map { $0.1 } == true)
        for i in 0..<1_500 {
            harness.send(touchpad, #"{"type":"ping","t":\#(i)}"#, at: 21_000 + Double(i) * 0.01)
            _ = harness.drain(touchpad, at: 21_000 + Double(i) * 0.01)
        }
        #expect(harness.transport.closesStarted.isEmpty)
    }

    /// A protocol close (errors in a row) flushes the error frames first, then closes with 1008 once.
    @Test func protocolCloseFlushesThenCloses() {
        let harness = HubHarness { $0.limits.maxErrorsInARow = 3 }
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        for _ in 0..<5 { harness.send(id, "garbage") }
        let (frames, close) = harness.drain(id)
        #expect(frames.filter { $0.contains(#""type":"error""#) }.count >= 3)
        guard case .close(_, let code, _) = close else {
            Issue.record("expected a close")
            return
        }
        #expect(code == .policyViolation)
        #expect(harness.drain(id).close == nil)
    }
}

/// The connection's one lifecycle is the hub's: once its session asked to close, the session
/// hears nothing more.
@Suite struct SessionCloseHubTests {
    /// After the session asks to close (errors in a row), later input gets no answer and its
    /// timers do not run: the errors already queued go out, then the 1008 Close.
    @Test func nothingReachesASessionThatAskedToClose() {
        let harness = HubHarness { $0.limits.maxErrorsInARow = 1 }
        let id = harness.open()
        harness.send(id, HubHarness.touchpadHello)
        harness.send(id, HubHarness.pointer("down", x: 10, y: 10, t: 100), at: 1)
        harness.send(id, "garbage", at: 2)
        #expect(harness.transport.closesStarted.isEmpty)
        harness.send(id, "garbage", at: 3)
        #expect(harness.transport.closesStarted == [id])
        #expect(harness.send(id, #"{"type":"ping","t":5}"#, at: 4).isEmpty)
        #expect(harness.fire(id, at: 5_000).isEmpty)
        let (frames, close) = harness.drain(id, at: 5_001)
        #expect(frames.filter { $0.contains(#""type":"error""#) }.count == 2)
        #expect(!frames.contains { $0.contains(#""type":"pong""#) || $0.contains(#""gesture":"longPress""#) })
        guard case .close(_, let code, _) = close else {
            Issue.record("expected a close")
            return
        }
        #expect(code == .policyViolation)
    }
}

/// The hub starts each connection's hello deadline and closes a silent connection with 1008.
@Suite struct HelloDeadlineHubTests {
    /// The transport timer is armed at open + helloTimeoutMs; firing it closes with 1008.
    @Test func silentConnectionIsClosed() {
        let harness = HubHarness()
        let id = harness.open(at: 1_000)
        #expect(harness.transport.armed[id] == 11_000)
        harness.fire(id, at: 11_000)
        guard case .close(_, let code, _) = harness.drain(id).close else {
            Issue.record("expected a close")
            return
        }
        #expect(code == .policyViolation)
    }
}
