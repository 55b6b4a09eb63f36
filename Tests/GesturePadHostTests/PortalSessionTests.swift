import GestureControl
import Testing

@testable import GesturePadHost

/// The portal session state machine: the Request / Response flow, consent kept, endings.
@Suite struct PortalSessionTests {
    static let name = ":1.42"
    static let requests = "/org/freedesktop/portal/desktop/request/1_42/"
    static let session = "/org/freedesktop/portal/desktop/session/1_42/gesturepad_session_2"
    /// The virtual clock's origin, ms: SelectDevices is answered (and Start called) here.
    static let origin = 1_000_000.0

    /// Runs `begin` and the CreateSession and SelectDevices answers; returns the Start call.
    private func startUp(
        _ machine: inout PortalSession, version: UInt32 = 2, token: String? = nil
    ) -> [PortalSession.Action] {
        let begun = machine.handle(.begin(uniqueName: Self.name, version: version, restoreToken: token))
        #expect(
            begun == [
                .report(.notAllowed(reason: PortalSession.Reason.waiting)),
                .call(.createSession(handleToken: "gesturepad_request_1", sessionToken: "gesturepad_session_2")),
            ])
        _ = machine.handle(.requestHandle(Self.requests + "gesturepad_request_1"))
        let created = machine.handle(
            .response(
                path: Self.requests + "gesturepad_request_1", code: 0,
                results: ["session_handle": .string(Self.session)], at: Self.origin))
        let persist = version >= 2
        #expect(
            created == [
                .call(
                    .selectDevices(
                        session: Self.session, handleToken: "gesturepad_request_3", types: 3,
                        persistMode: persist ? 2 : nil, restoreToken: persist ? token : nil))
            ])
        let selected = machine.handle(
            .response(path: Self.requests + "gesturepad_request_3", code: 0, results: [:], at: Self.origin))
        #expect(selected == [.call(.start(session: Self.session, handleToken: "gesturepad_request_4"))])
        return selected
    }

    /// Start's answer, `after` the call (a second: a person's pace).
    private func startResponse(
        _ results: [String: DBusValue], code: UInt32 = 0, after: Double = 1_000
    ) -> PortalSession.Event {
        .response(path: Self.requests + "gesturepad_request_4", code: code, results: results, at: Self.origin + after)
    }

    /// CreateSession → SelectDevices (keyboard|pointer, persist_mode 2, the stored token) →
    /// Start; the new restore token is saved and the backend reports active.
    @Test func flowWithConsentKept() {
        var machine = PortalSession()
        _ = startUp(&machine, token: "old-token")
        let started = machine.handle(startResponse(["devices": .uint32(3), "restore_token": .string("new-token")]))
        #expect(started == [.saveRestoreToken("new-token"), .report(.active)])
        #expect(machine.activeSession == Self.session)
    }

    /// RemoteDesktop version 1 cannot persist: no persist_mode, no token sent, none expected.
    @Test func versionOneAsksEveryTime() {
        var machine = PortalSession()
        _ = startUp(&machine, version: 1, token: "ignored")
        #expect(machine.handle(startResponse(["devices": .uint32(3)])) == [.report(.active)])
    }

    /// A version 2 portal that sends no token: active, with a notice that it will ask again.
    @Test func noTokenReturned() {
        var machine = PortalSession()
        _ = startUp(&machine)
        let actions = machine.handle(startResponse(["devices": .uint32(3)]))
        #expect(actions.count == 2)
        #expect(actions.last == .report(.active))
    }

    /// The user declines the dialog (Response 1 to Start): the reason says so, and the session
    /// is not closed again — xdg-desktop-portal has closed it (a Close would fail).
    @Test func declined() {
        var machine = PortalSession()
        _ = startUp(&machine)
        #expect(machine.handle(startResponse([:], code: 1)) == [.report(.notAllowed(reason: PortalSession.Reason.declined))])
        #expect(machine.activeSession == nil)
    }

    /// A 1 to Start sooner than anyone can see a dialog (KDE's portal without its dialog's QML
    /// answers in 4–40 ms) says the dialog could not be shown, with the time it took; from
    /// `fastestAnswerMilliseconds` on it is a person declining.
    @Test(arguments: [(4, true), (40, true), (99, true), (100, false), (138, false), (1000, false)])
    func refusalTooSoonForAPerson(milliseconds: Int, unseen: Bool) {
        var machine = PortalSession()
        _ = startUp(&machine)
        let actions = machine.handle(startResponse([:], code: 1, after: Double(milliseconds)))
        // A person's No is not a fault (a notice); a dialog that could not be shown is.
        let status: ControlBackendStatus =
            unseen
            ? .inactive(reason: PortalSession.Reason.refusedUnseen(after: Double(milliseconds)))
            : .notAllowed(reason: PortalSession.Reason.declined)
        #expect(actions == [.report(status)])
        #expect(machine.activeSession == nil)
    }

    /// The unseen refusal's reason names the time, that no dialog could be shown, and KDE's
    /// missing modules — never "declined".
    @Test func unseenRefusalWording() {
        let reason = PortalSession.Reason.refusedUnseen(after: 32)
        #expect(reason.contains("after 32 ms"))
        #expect(reason.contains("could not show"))
        #expect(reason.contains("plasma-workspace"))
        #expect(!reason.contains("declined"))
    }

    /// The time runs from Start's call, not from the session's first request: a slow
    /// CreateSession does not make a quick refusal look like a person's.
    @Test func refusalTimeRunsFromStart() {
        var machine = PortalSession()
        _ = machine.handle(.begin(uniqueName: Self.name, version: 1, restoreToken: nil))
        _ = machine.handle(
            .response(
                path: Self.requests + "gesturepad_request_1", code: 0, results: ["session_handle": .string(Self.session)],
                at: Self.origin))
        _ = machine.handle(
            .response(path: Self.requests + "gesturepad_request_3", code: 0, results: [:], at: Self.origin + 5_000))
        let refused = machine.handle(
            .response(
                path: Self.requests + "gesturepad_request_4", code: 1, results: [:],
                at: Self.origin + 5_040))
        #expect(refused == [.report(.inactive(reason: PortalSession.Reason.refusedUnseen(after: 40)))])
    }

    /// Another code than 1 to Start, however soon, is "ended (response N)".
    @Test func otherCodesAreNotRefusals() {
        var machine = PortalSession()
        _ = startUp(&machine)
        let actions = machine.handle(startResponse([:], code: 2, after: 20))
        #expect(actions == [.report(.inactive(reason: PortalSession.Reason.ended(2)))])
    }

    /// No pointer granted: not active.
    @Test func pointerRequired() {
        var machine = PortalSession()
        _ = startUp(&machine)
        #expect(machine.handle(startResponse(["devices": .uint32(1)])).last == .report(.inactive(reason: PortalSession.Reason.noPointer)))
    }

    /// Session.Closed of the active session ends it; nothing asks again until the next begin,
    /// which starts a new session on new Request paths (with the newest token).
    @Test func revokedThenAskedAgain() {
        var machine = PortalSession()
        _ = startUp(&machine)
        _ = machine.handle(startResponse(["restore_token": .string("t1")]))
        #expect(machine.handle(.sessionClosed(path: "/elsewhere")) == [])
        #expect(machine.handle(.sessionClosed(path: Self.session)) == [.report(.inactive(reason: PortalSession.Reason.closed))])
        #expect(machine.activeSession == nil)
        let again = machine.handle(.begin(uniqueName: Self.name, version: 2, restoreToken: "t1"))
        #expect(again.last == .call(.createSession(handleToken: "gesturepad_request_5", sessionToken: "gesturepad_session_6")))
    }

    /// `begin` while asking or active does nothing: a touchpad arriving never starts a second
    /// request.
    @Test func beginIsIgnoredUnlessInactive() {
        var machine = PortalSession()
        _ = machine.handle(.begin(uniqueName: Self.name, version: 2, restoreToken: nil))
        #expect(machine.handle(.begin(uniqueName: Self.name, version: 2, restoreToken: nil)) == [])
        _ = startUpRemainder(&machine)
        #expect(machine.handle(.begin(uniqueName: Self.name, version: 2, restoreToken: nil)) == [])
    }

    private func startUpRemainder(_ machine: inout PortalSession) -> [PortalSession.Action] {
        _ = machine.handle(
            .response(
                path: Self.requests + "gesturepad_request_1", code: 0, results: ["session_handle": .objectPath(Self.session)],
                at: Self.origin))
        _ = machine.handle(.response(path: Self.requests + "gesturepad_request_3", code: 0, results: [:], at: Self.origin))
        return machine.handle(startResponse([:]))
    }

    /// Responses of other Requests, and stray ones, are ignored.
    @Test func strayResponses() {
        var machine = PortalSession()
        _ = machine.handle(.begin(uniqueName: Self.name, version: 2, restoreToken: nil))
        #expect(machine.handle(.response(path: Self.requests + "other", code: 0, results: [:], at: Self.origin)) == [])
        #expect(machine.handle(startResponse([:])) == [])
    }

    /// A portal that ignores handle_token answers on another Request path: that one is awaited.
    @Test func adoptsTheReturnedRequestPath() {
        var machine = PortalSession()
        _ = machine.handle(.begin(uniqueName: Self.name, version: 2, restoreToken: nil))
        _ = machine.handle(.requestHandle("/custom/request"))
        let actions = machine.handle(
            .response(path: "/custom/request", code: 0, results: ["session_handle": .string(Self.session)], at: Self.origin))
        #expect(actions.count == 1)
    }

    /// A failed call or a lost bus ends the attempt with the reason.
    @Test func failures() {
        var machine = PortalSession()
        _ = startUp(&machine)
        #expect(
            machine.handle(.callFailed("AccessDenied")) == [
                .call(.closeSession(session: Self.session)), .report(.inactive(reason: PortalSession.Reason.failed("AccessDenied"))),
            ])
        var other = PortalSession()
        _ = startUp(&other)
        _ = other.handle(startResponse([:]))
        #expect(other.handle(.connectionLost("reset")) == [.report(.inactive(reason: PortalSession.Reason.lost("reset")))])
        #expect(other.handle(.connectionLost("again")) == [])
    }

    /// The portal leaving the bus ends the session (nothing to close: it is gone); while
    /// inactive it changes nothing.
    @Test func portalGone() {
        var machine = PortalSession()
        #expect(machine.handle(.portalGone) == [])
        _ = startUp(&machine)
        _ = machine.handle(startResponse([:]))
        #expect(machine.handle(.portalGone) == [.report(.inactive(reason: PortalSession.Reason.portalGone))])
        #expect(machine.activeSession == nil)
    }

    /// `stop` closes the open session and everything after it is ignored.
    @Test func stopClosesTheSession() {
        var machine = PortalSession()
        _ = startUp(&machine)
        _ = machine.handle(startResponse([:]))
        #expect(machine.handle(.stop) == [.call(.closeSession(session: Self.session))])
        #expect(machine.handle(.sessionClosed(path: Self.session)) == [])
        #expect(machine.handle(.begin(uniqueName: Self.name, version: 2, restoreToken: nil)) == [])
        var idle = PortalSession()
        #expect(idle.handle(.stop) == [])
    }

    /// The calls as D-Bus messages: the documented members, argument order and option keys.
    @Test func callsOnTheWire() {
        let select = PortalCall.selectDevices(
            session: Self.session, handleToken: "h", types: 3, persistMode: 2, restoreToken: "tok"
        ).methodCall
        #expect(select.member == "SelectDevices" && select.interface == "org.freedesktop.portal.RemoteDesktop")
        #expect(
            select.arguments == [
                .objectPath(Self.session),
                .vardict([
                    DBusEntry("handle_token", .string("h")), DBusEntry("types", .uint32(3)),
                    DBusEntry("persist_mode", .uint32(2)), DBusEntry("restore_token", .string("tok")),
                ]),
            ])
        let start = PortalCall.start(session: Self.session, handleToken: "s").methodCall
        #expect(start.arguments == [.objectPath(Self.session), .string(""), .vardict([DBusEntry("handle_token", .string("s"))])])
        let close = PortalCall.closeSession(session: Self.session).methodCall
        #expect(close.path == Self.session && close.interface == "org.freedesktop.portal.Session" && close.member == "Close")
        #expect(PortalBus.requestPath(uniqueName: ":1.42", token: "t") == Self.requests + "t")
    }
}
