import GestureControl
import GesturePadSettings
import GestureProtocol

/// Where the hub's actions that are not the transport's go: the sinks, the control backend and
/// the input recorder. The shell (`WebServer`, on its service thread; tests) hands every action
/// here in order with the transport's; none of these calls blocks.
struct HubOutlets {
    let sinks: [any GestureSink]
    /// Carries out touchpads' host actions (nil: control is off).
    let backend: (any ControlBackend)?
    /// Keeps touchpad sessions' frames (`--record`; nil: off).
    let recorder: (any InputRecorder)?
    /// The computer's media players (nil: none are reached).
    var media: (any MediaRemote)? = nil

    /// Carries out `action` if it is for the sinks, the backend or the recorder; the
    /// transport's and pairing's actions are not theirs and pass by.
    func carryOut(_ action: HubAction) {
        switch action {
        case .deliver(let session, let events):
            for event in events {
                for sink in sinks { sink.receive(event, session: session) }
            }
        case .note(let session, let notes):
            for note in notes {
                for sink in sinks { sink.note(note, session: session) }
            }
        case .deliverMedia(let events):
            for event in events {
                for sink in sinks { sink.receive(event) }
            }
        case .announceSession(let session, let open):
            for sink in sinks { sink.session(session, open: open) }
        case .replaceHooks(let rules):
            for case let holder as any HookRuleHolder in sinks { holder.replaceRules(rules) }
        case .perform(let actions):
            backend?.perform(actions)
        case .requestControl:
            backend?.requestControl()
        case .beginRecording(let session, let frame):
            recorder?.began(session, with: frame)
        case .record(let session, let frame):
            recorder?.record(session, frame)
        case .endRecording(let session):
            recorder?.ended(session)
        case .media(let command):
            media?.perform(command)
        case .requestWritable, .write, .pauseReading, .resumeReading, .scheduleWakeup, .cancelWakeup,
            .limitClosingTime, .close, .hangUp, .unpairDevice, .judgeProof:
            break
        }
    }
}
