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
