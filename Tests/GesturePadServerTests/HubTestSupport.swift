import Testing
import GestureEngine
import GesturePadHost
import GestureProtocol
import Logging

@testable import GesturePadServer

/// Records what the hub asks of the transport.
final class FakeTransport: HubTransport {
    var writableRequests: [Int] = []
    var receiving: [(Int, Bool)] = []
    var schedules: [(Int, Double?)] = []
    var closesStarted: [Int] = []

    func requestWritable(_ id: Int) { writableRequests.append(id) }
    func setReceiving(_ id: Int, _ enabled: Bool) { receiving.append((id, enabled)) }
    func schedule(_ id: Int, at time: Double?) { schedules.append((id, time)) }
    func closeStarted(_ id: Int) { closesStarted.append(id) }
}

/// Records what the hub gives the sinks.
final class RecordingSink: GestureSink, @unchecked Sendable {
    var events: [(session: String, event: GestureEvent)] = []
    var sessions: [(String, Bool)] = []
    var reopened = 0
    var closed = 0

    func receive(_ event: GestureEvent, session: String) { events.append((session, event)) }
    func session(_ session: String, open: Bool) { sessions.append((session, open)) }
    func reopen() { reopened += 1 }
    func close() { closed += 1 }
}

/// Records what the hub hands an input recorder (`--record`).
final class FakeRecorder: InputRecorder, @unchecked Sendable {
    enum Call: Equatable {
        case began(String, String)
        case frame(String, String)
        case ended(String)
    }
    var calls: [Call] = []
    var closed = 0

    func began(_ session: String, with frame: [UInt8]) { calls.append(.began(session, String(decoding: frame, as: UTF8.self))) }
    func record(_ session: String, _ frame: [UInt8]) { calls.append(.frame(session, String(decoding: frame, as: UTF8.self))) }
    func ended(_ session: String) { calls.append(.ended(session)) }
    func close() { closed += 1 }
}

/// A hub wired to a fake transport and a recording sink.
struct HubHarness {
    let hub: ConnectionHub
    let transport = FakeTransport()
    let sink = RecordingSink()

    init(
        backend: (any ControlBackend)? = nil, recorder: (any InputRecorder)? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) {
        var configuration = ServerConfiguration(publicDirectory: "/p", token: "t")
        configure(&configuration)
        hub = ConnectionHub(
            configuration: configuration, sinks: [sink], backend: backend, recorder: recorder,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        hub.transport = transport
    }

    /// Sends one whole text message to `id` at server time `now`.
    func send(_ id: Int, _ text: String, at now: Double = 0) {
        let bytes = Array(text.utf8)
        hub.receive(id, length: bytes.count, isFinal: true, isBinary: false, now: now) {
            $0.append(contentsOf: bytes)
        }
    }

    /// Writes everything `id` has queued; returns the frames and the close it ended with, if any.
    func drain(_ id: Int, at now: Double = 0) -> (frames: [String], close: WriteStep?) {
        var frames: [String] = []
        var scratch: [UInt8] = []
        while true {
            let (step, _) = hub.writable(id, into: &scratch, now: now)
            switch step {
            case .idle: return (frames, nil)
            case .frames(let length, let count):
                let payloads = WebSocketFrames.textPayloads(scratch[0..<length])
                #expect(payloads.count == count)
                frames += payloads
            case .close: return (frames, step)
            }
        }
    }

    static let touchpadHello = #"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844}"#
    static let observerHello = #"{"type":"hello","protocol":1,"role":"observer","width":390,"height":844}"#

    static func pointer(_ type: String, id: Int = 1, x: Double, y: Double, t: Double) -> String {
        #"{"type":"\#(type)","id":\#(id),"x":\#(x),"y":\#(y),"t":\#(t),"pointerType":"touch"}"#
    }
}
