import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol
import Logging
import Testing

@testable import GesturePadServer

/// Carries out what the hub asks the way a test needs it: records every action, keeps what
/// each connection has asked of the transport (its armed timer, whether it reads), and hands
/// the rest to the outlets (test sinks, backend, recorder) as the server does.
final class FakeTransport {
    let outlets: HubOutlets
    var log: [HubAction] = []
    var writableRequests: [Int] = []
    var receiving: [(Int, Bool)] = []
    var schedules: [(Int, Double?)] = []
    var closesStarted: [Int] = []
    var unpairs: [Int] = []
    /// The answers to challenges the hub handed over to judge.
    var proofs: [(Int, [UInt8])] = []
    var mediaCommands: [MediaCommand] = []
    /// The deadline armed for each connection, while one is.
    var armed: [Int: Double] = [:]

    init(outlets: HubOutlets) {
        self.outlets = outlets
    }

    func carryOut(_ actions: [HubAction]) {
        log += actions
        for action in actions {
            outlets.carryOut(action)
            switch action {
            case .requestWritable(let id): writableRequests.append(id)
            case .pauseReading(let id): receiving.append((id, false))
            case .resumeReading(let id): receiving.append((id, true))
            case .scheduleWakeup(let id, let deadline):
                schedules.append((id, deadline))
                armed[id] = deadline
            case .cancelWakeup(let id):
                schedules.append((id, nil))
                armed[id] = nil
            case .limitClosingTime(let id): closesStarted.append(id)
            case .unpairDevice(let id): unpairs.append(id)
            case .judgeProof(let id, let answer): proofs.append((id, answer))
            case .media(let command): mediaCommands.append(command)
            case .write, .close, .hangUp, .deliver, .deliverMedia, .note, .announceSession, .replaceHooks, .perform,
                .requestControl,
                .beginRecording, .record, .endRecording:
                break
            }
        }
    }
}

/// Records what the hub gives the sinks.
final class RecordingSink: GestureSink, @unchecked Sendable {
    var events: [(session: String, event: GestureEvent)] = []
    var sessions: [(String, Bool)] = []
    var notes: [(session: String, note: SessionNote)] = []
    var media: [MediaEvent] = []
    var reopened = 0
    var closed = 0

    func receive(_ event: GestureEvent, session: String) { events.append((session, event)) }
    func note(_ note: SessionNote, session: String) { notes.append((session, note)) }
    func receive(_ event: MediaEvent) { media.append(event) }
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

/// A hub wired to a fake transport and a recording sink, naming connections 1, 2, … as the
/// server does.
final class HubHarness {
    let hub: ConnectionHub
    let transport: FakeTransport
    let sink = RecordingSink()
    private var nextID = 1

    init(
        backend: (any ControlBackend)? = nil, recorder: (any InputRecorder)? = nil, identity: ServerIdentity? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) {
        var configuration = ServerConfiguration(publicDirectory: "/p", token: "t")
        configure(&configuration)
        hub = ConnectionHub(
            configuration: configuration, backendName: backend?.name, recording: recorder != nil, identity: identity,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        transport = FakeTransport(outlets: HubOutlets(sinks: [sink], backend: backend, recorder: recorder))
    }

    /// Opens the next connection at server time `now`; returns its id and the hub's actions.
    func opening(at now: Double = 0) -> (id: Int, actions: [HubAction]) {
        let id = nextID
        nextID += 1
        return (id, handle(.opened(id, now: now)))
    }

    /// Opens the next connection at server time `now`; returns its id.
    func open(at now: Double = 0) -> Int {
        opening(at: now).id
    }

    /// Hands `input` to the hub and carries out its actions; returns them.
    @discardableResult
    func handle(_ input: HubInput) -> [HubAction] {
        let actions = hub.handle(input)
        transport.carryOut(actions)
        return actions
    }

    /// One chunk of a data frame for `id` at `now`.
    @discardableResult
    func receive(_ id: Int, _ bytes: [UInt8], isFinal: Bool = true, isBinary: Bool = false, at now: Double = 0)
        -> [HubAction]
    {
        handle(.received(id, bytes[...], isFinal: isFinal, isBinary: isBinary, now: now))
    }

    /// Sends one whole text message to `id` at server time `now`.
    @discardableResult
    func send(_ id: Int, _ text: String, at now: Double = 0) -> [HubAction] {
        receive(id, Array(text.utf8), at: now)
    }

    /// Fires `id`'s timer at `now` (no input waiting in its socket unless said); like an lws
    /// timer, a fired one is no longer armed.
    @discardableResult
    func fire(_ id: Int, at now: Double, inputPending: Bool = false) -> [HubAction] {
        transport.armed[id] = nil
        return handle(.wakeup(id, now: now, inputPending: inputPending))
    }

    /// Writes everything `id` has queued; returns the messages and the close it ended with, if any.
    func drain(_ id: Int, at now: Double = 0) -> (frames: [String], close: HubAction?) {
        var frames: [String] = []
        while true {
            let actions = handle(.writable(id, now: now))
            if let close = actions.first(where: { if case .close = $0 { true } else { false } }) {
                return (frames, close)
            }
            guard let batch = actions.lazy.compactMap({ if case .write(_, let batch) = $0 { batch } else { nil } }).first
            else { return (frames, nil) }
            frames += batch.texts
        }
    }

    static let touchpadHello = #"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844}"#
    static let observerHello = #"{"type":"hello","protocol":1,"role":"observer","width":390,"height":844}"#

    static func pointer(_ type: String, id: Int = 1, x: Double, y: Double, t: Double) -> String {
        #"{"type":"\#(type)","id":\#(id),"x":\#(x),"y":\#(y),"t":\#(t),"pointerType":"touch"}"#
    }
}
