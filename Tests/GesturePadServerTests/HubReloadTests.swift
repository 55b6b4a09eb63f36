import Foundation
import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// A sink that takes hook rules, as `HookSink` does.
final class RuleTakingSink: GestureSink, HookRuleHolder, @unchecked Sendable {
    var replaced: [[HookRule]] = []

    func receive(_ event: GestureEvent, session: String) {}
    func session(_ session: String, open: Bool) {}
    func reopen() {}
    func close() {}
    func replaceRules(_ rules: [HookRule]) { replaced.append(rules) }
}

/// The configuration read again (SIGHUP): one more input of the hub.
struct HubReloadTests {
    static func messages(_ frames: [String]) -> [[String: Any]] {
        frames.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The thresholds and control settings of the connections that open from then on; an open
    /// touchpad keeps its own and is sent nothing; the hook rules go to the sinks as an action.
    @Test func newSessionsGetTheNewSettingsAndTheSinksTheRules() throws {
        let h = ControlStatusHubTests.harness(SwitchableBackend())
        let before = h.open()
        h.send(before, HubHarness.touchpadHello, at: 0)
        h.send(before, #"{"type":"settings"}"#, at: 0)  // answered with the settings in force
        let first = Self.messages(h.drain(before).frames)
        #expect((first[0]["config"] as? [String: Any])?["tapMaxDuration"] as? Double == 250)
        #expect(first.first { $0["type"] as? String == "settings" }?["speed"] as? Double == 1)

        var gestures = GestureConfig()
        gestures.tapMaxDuration = 400
        var control = ControlSettings()
        control.speed = 2.5
        let rule = HookRule(
            name: "r", gestures: [.tap], action: .run(RunHookOptions(program: "true", arguments: [])))
        let settings = ReloadedSettings(gestures: gestures, control: control, hooks: [rule], source: "/c.yaml")
        #expect(h.handle(.reconfigure(settings)) == [.replaceHooks([rule])])
        #expect(h.drain(before).frames.isEmpty)
        h.send(before, #"{"type":"settings"}"#, at: 5)
        #expect(Self.messages(h.drain(before).frames).first?["speed"] as? Double == 1, "an open touchpad keeps its own")

        let after = h.open(at: 10)
        h.send(after, HubHarness.touchpadHello, at: 10)
        h.send(after, #"{"type":"settings"}"#, at: 10)
        let second = Self.messages(h.drain(after).frames)
        #expect((second[0]["config"] as? [String: Any])?["tapMaxDuration"] as? Double == 400)
        #expect(second.first { $0["type"] as? String == "settings" }?["speed"] as? Double == 2.5)
    }

    /// Two fingers tapping twice from page time `t` (server time the same).
    static func twoFingerDoubleTap(_ h: HubHarness, _ id: Int, at t: Double) {
        for start in [t, t + 150] {
            h.send(id, HubHarness.pointer("down", id: 1, x: 100, y: 300, t: start), at: start)
            h.send(id, HubHarness.pointer("down", id: 2, x: 150, y: 300, t: start + 1), at: start + 1)
            h.send(id, HubHarness.pointer("up", id: 1, x: 100, y: 300, t: start + 50), at: start + 50)
            h.send(id, HubHarness.pointer("up", id: 2, x: 150, y: 300, t: start + 51), at: start + 51)
        }
    }

    /// The gestures the new rules claim apply to an open touchpad too, from its next event
    /// (as the rules themselves): its two-finger double tap right-clicks no more.
    @Test func claimsReachOpenTouchpads() {
        let backend = RecordingBackend()
        let h = ControlHubTests.harness(backend)
        let id = h.open()
        h.send(id, HubHarness.touchpadHello, at: 0)
        Self.twoFingerDoubleTap(h, id, at: 1000)
        let click: [HostAction] = [.button(.right, .down), .button(.right, .up)]
        #expect(backend.actions == click + click)

        var control = ControlSettings()
        control.claims = GestureClaims([GestureClaim(gestures: [.doubleTap], pointers: 2)])
        var rule = HookRule(name: "r", gestures: [.doubleTap], action: .run(RunHookOptions(program: "true", arguments: [])))
        rule.pointers = 2
        rule.claim = true
        let settings = ReloadedSettings(gestures: GestureConfig(), control: control, hooks: [rule], source: "/c.yaml")
        #expect(HookRule.claims(of: [rule]) == control.claims)
        h.handle(.reconfigure(settings))
        Self.twoFingerDoubleTap(h, id, at: 3000)
        _ = h.fire(id, at: 5000)
        #expect(backend.actions == click + click, "a claimed double tap clicked: \(backend.actions)")
    }

    /// The outlets hand the rules to every sink that holds rules, and to no other.
    @Test func theRulesReachTheHookSink() {
        let taker = RuleTakingSink()
        let other = RecordingSink()
        let outlets = HubOutlets(sinks: [other, taker], backend: nil, recorder: nil)
        outlets.carryOut(.replaceHooks([]))
        outlets.carryOut(
            .replaceHooks([HookRule(name: "x", gestures: [.swipe], action: .pipe(PipeHookOptions(program: "cat", arguments: [])))]
            ))
        #expect(taker.replaced.map { $0.map(\.name) } == [[], ["x"]])
        #expect(other.events.isEmpty)
    }
}
