import GestureControl

/// The RemoteDesktop portal session as a state machine: events in, actions out. Pure (no bus,
/// no files, no clock); `PortalLoop` carries the actions out and feeds back what happened.
///
///     inactive ──begin──▶ creating ──Response 0──▶ selecting ──Response 0──▶ starting
///        ▲                   │                         │                        │
///        │                   └──── refusal, error, Closed, lost bus ────────────┤
///        │                                                              Response 0
///        └──────────── Session.Closed, lost bus ─────────────  active ◀─────────┘
///
/// - `begin` (at start-up, then on each touchpad connection while inactive) calls
///   `CreateSession`; each step goes through its Request object: the call returns the
///   Request's path (known beforehand from the handle token), and the portal answers with
///   that Request's `Response` signal (0 success, 1 declined by the user, 2 ended otherwise).
/// - A 1 to `Start` sooner than anyone can answer a dialog (`fastestAnswerMilliseconds` after the call) is
///   a desktop that could not show its dialog — KDE Plasma's portal without plasma-workspace's
///   dialog modules answers so in 4–40 ms — not a person declining: the reason says which.
/// - `SelectDevices` asks for keyboard and pointer (types 3); on RemoteDesktop version 2 and
///   later also `persist_mode` 2 (kept until revoked) and the stored `restore_token`, if any,
///   so the dialog appears once. `Start`'s results carry the next `restore_token`: saved.
/// - The session's `Closed` signal (revoked by the user, the compositor restarted), the portal
///   leaving the bus, and a lost bus end it. Nothing starts again by itself: the next `begin` asks again (no loop).
/// - `stop` closes the session (if one exists) and ignores everything after.
struct PortalSession: Sendable {
    /// What happened.
    enum Event: Sendable, Hashable {
        /// Ask for a session: on connection `uniqueName` to a portal of RemoteDesktop
        /// `version`, with the stored `restoreToken`. Ignored unless inactive.
        case begin(uniqueName: String, version: UInt32, restoreToken: String?)
        /// The call asked for returned this Request object path.
        case requestHandle(String)
        /// The call asked for failed (error reply, timeout).
        case callFailed(String)
        /// A Request's `Response` signal, which arrived `at`.
        case response(path: String, code: UInt32, results: [String: DBusValue], at: Double)
        /// A Session's `Closed` signal.
        case sessionClosed(path: String)
        /// The bus connection broke.
        case connectionLost(String)
        /// The portal left the bus (it, or the desktop, restarted): its sessions are gone,
        /// without a `Closed` signal.
        case portalGone
        /// The server stops.
        case stop
    }

    /// What to do, in order.
    enum Action: Sendable, Hashable {
        /// Make this call, then feed back `requestHandle` or `callFailed` (for `closeSession`,
        /// nothing).
        case call(PortalCall)
        /// Store this restore token (replacing the old one: each is single-use).
        case saveRestoreToken(String)
        /// Tell the server whether the backend drives the computer.
        case report(ControlBackendStatus)
        /// A line for the terminal that changes nothing.
        case notice(String)
    }

    private enum State: Sendable, Hashable {
        case inactive
        case creating(request: String)
        case selecting(session: String, request: String)
        /// `since`: when `Start` was called (the moment of the answer that led to it, in the
        /// worker clock's milliseconds).
        case starting(session: String, request: String, since: Double)
        case active(session: String)
        case stopped
    }

    /// A refusal of `Start` sooner than this after the call was made by no person: the dialog
    /// has to appear before anyone can answer it. Seen on KDE Plasma 5.27.5 (tests/kde, headless,
    /// 2 busy cores): the portal that cannot load its dialog answers in 4–40 ms; a dialog that
    /// did show was answered at the earliest after 138 ms, by AT-SPI pressing Cancel the moment
    /// it appeared — a person needs a few hundred ms more to see it and react.
    static let fastestAnswerMilliseconds = 100.0

    /// The user-facing reasons, kept together so that they read alike.
    enum Reason {
        static let waiting = "waiting for the desktop's permission (answer its remote control dialog)"
        static let declined = "remote control was declined in the desktop's dialog; reconnect the page to ask again"
        static func refusedUnseen(after elapsed: Double) -> String {
            let milliseconds = max(0, Int(elapsed.rounded()))
            return "the desktop refused remote control after \(milliseconds) ms, too soon for anyone to have seen "
                + "its dialog: it could not show one (KDE Plasma: plasma-workspace's dialog modules are missing); "
                + "reconnect the page to ask again"
        }
        static let closed =
            "the desktop ended the remote control session (revoked, or the compositor restarted); reconnect the page to ask again"
        static let noPointer = "the desktop did not allow pointer control; reconnect the page to ask again"
        static func ended(_ code: UInt32) -> String {
            "the desktop ended the remote control request (response \(code)); reconnect the page to ask again"
        }
        static func failed(_ message: String) -> String {
            "the RemoteDesktop portal failed: \(message); reconnect the page to ask again"
        }
        static let portalGone =
            "the desktop portal left the session bus (it, or the desktop, restarted); reconnect the page to ask again"
        static func lost(_ message: String) -> String {
            "lost the session bus (\(message)); reconnect the page to ask again"
        }
    }

    private var state = State.inactive
    private var uniqueName = ""
    private var version: UInt32 = 0
    private var restoreToken: String?
    /// Numbers the handle tokens; a new session never reuses a Request path.
    private var counter = 0

    init() {}

    /// Whether Notify calls may go to `activeSession`.
    var activeSession: String? {
        if case .active(let session) = state { return session }
        return nil
    }

    /// Whether the portal can keep the permission (RemoteDesktop version 2 or later).
    static func canPersist(version: UInt32) -> Bool { version >= 2 }

    /// Handles `event`; returns the actions to carry out, in order.
    mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.stopped, _):
            return []
        case (_, .stop):
            let session = currentSession
            state = .stopped
            return session.map { [.call(.closeSession(session: $0))] } ?? []
        case (.inactive, .begin(let name, let portalVersion, let token)):
            uniqueName = name
            version = portalVersion
            restoreToken = token
            let handleToken = nextToken("request")
            state = .creating(request: PortalBus.requestPath(uniqueName: name, token: handleToken))
            return [
                .report(.notAllowed(reason: Reason.waiting)),
                .call(.createSession(handleToken: handleToken, sessionToken: nextToken("session"))),
            ]
        case (_, .begin):
            return []
        case (_, .requestHandle(let path)):
            adoptRequestPath(path)
            return []
        case (.creating, .callFailed(let message)), (.selecting, .callFailed(let message)),
            (.starting, .callFailed(let message)):
            return end(.inactive(reason: Reason.failed(message)), closing: currentSession)
        case (_, .callFailed):
            return []
        case (_, .response(let path, let code, let results, let at)):
            guard path == currentRequest else { return [] }
            return respond(code: code, results: results, at: at)
        case (_, .sessionClosed(let path)):
            guard path == currentSession else { return [] }
            return end(.inactive(reason: Reason.closed), closing: nil)
        case (.inactive, .connectionLost), (.inactive, .portalGone):
            return []
        case (_, .portalGone):
            return end(.inactive(reason: Reason.portalGone), closing: nil)
        case (_, .connectionLost(let message)):
            return end(.inactive(reason: Reason.lost(message)), closing: nil)
        }
    }

    /// A Response to the current Request, which arrived `at`.
    private mutating func respond(code: UInt32, results: [String: DBusValue], at: Double) -> [Action] {
        guard code == 0 else {
            // xdg-desktop-portal closes the session itself when Start is refused (remote-desktop.c,
            // seen in 1.16 with GNOME and KDE): a Close then only fails with UnknownMethod.
            guard case .starting(_, _, let since) = state else {
                return end(
                    code == 1 ? .notAllowed(reason: Reason.declined) : .inactive(reason: Reason.ended(code)),
                    closing: currentSession)
            }
            return end(refusal(code: code, after: at - since), closing: nil)
        }
        switch state {
        case .creating:
            guard let session = results["session_handle"]?.text, !session.isEmpty else {
                return end(.inactive(reason: Reason.failed("CreateSession returned no session handle")), closing: nil)
            }
            let handleToken = nextToken("request")
            state = .selecting(session: session, request: requestPath(handleToken))
            let persist = Self.canPersist(version: version)
            return [
                .call(
                    .selectDevices(
                        session: session, handleToken: handleToken, types: PortalBus.keyboard | PortalBus.pointer,
                        persistMode: persist ? 2 : nil, restoreToken: persist ? restoreToken : nil))
            ]
        case .selecting(let session, _):
            let handleToken = nextToken("request")
            state = .starting(session: session, request: requestPath(handleToken), since: at)
            return [.call(.start(session: session, handleToken: handleToken))]
        case .starting(let session, _, _):
            let devices = results["devices"]?.uint32 ?? (PortalBus.keyboard | PortalBus.pointer)
            guard devices & PortalBus.pointer != 0 else { return end(.inactive(reason: Reason.noPointer), closing: session) }
            state = .active(session: session)
            var actions: [Action] = []
            if let token = results["restore_token"]?.text, !token.isEmpty {
                restoreToken = token
                actions.append(.saveRestoreToken(token))
            } else if Self.canPersist(version: version) {
                actions.append(.notice("the desktop did not keep the permission: it will ask again at the next start"))
            }
            if devices & PortalBus.keyboard == 0 {
                actions.append(.notice("the desktop allowed the pointer but not the keyboard: typing will not work"))
            }
            actions.append(.report(.active))
            return actions
        case .inactive, .active, .stopped:
            return []
        }
    }

    /// Why `Start` was refused with `code`, answered `elapsed` ms after the call: declined by the
    /// person (not a fault), or a desktop that could not ask.
    private func refusal(code: UInt32, after elapsed: Double) -> ControlBackendStatus {
        guard code == 1 else { return .inactive(reason: Reason.ended(code)) }
        return elapsed < Self.fastestAnswerMilliseconds
            ? .inactive(reason: Reason.refusedUnseen(after: elapsed)) : .notAllowed(reason: Reason.declined)
    }

    /// Back to inactive (`status`), closing `session` if it is still open.
    private mutating func end(_ status: ControlBackendStatus, closing session: String?) -> [Action] {
        state = .inactive
        var actions: [Action] = []
        if let session { actions.append(.call(.closeSession(session: session))) }
        actions.append(.report(status))
        return actions
    }

    private var currentRequest: String? {
        switch state {
        case .creating(let request), .selecting(_, let request), .starting(_, let request, _): request
        case .inactive, .active, .stopped: nil
        }
    }

    private var currentSession: String? {
        switch state {
        case .selecting(let session, _), .starting(let session, _, _), .active(let session): session
        case .inactive, .creating, .stopped: nil
        }
    }

    /// A portal that ignored the handle token answered with another Request path: wait on it.
    private mutating func adoptRequestPath(_ path: String) {
        switch state {
        case .creating: state = .creating(request: path)
        case .selecting(let session, _): state = .selecting(session: session, request: path)
        case .starting(let session, _, let since): state = .starting(session: session, request: path, since: since)
        case .inactive, .active, .stopped: break
        }
    }

    private func requestPath(_ token: String) -> String {
        PortalBus.requestPath(uniqueName: uniqueName, token: token)
    }

    /// `gesturepad_request_3`: a valid object path element, unique on this connection.
    private mutating func nextToken(_ kind: String) -> String {
        counter += 1
        return "gesturepad_\(kind)_\(counter)"
    }
}
