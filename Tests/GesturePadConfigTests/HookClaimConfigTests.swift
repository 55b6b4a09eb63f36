import GestureControl
import GestureEngine
import GesturePadSettings
import Testing

@testable import GesturePadConfig

/// `claim:` of a hook rule (docs/outputs.md): read as a bool, false by default, refused on
/// gestures the computer does nothing for; the rules' claims become the mapping's.
@Suite struct HookClaimConfigTests {
    static let yaml = """
        hooks:
          - gesture: doubleTap
            pointers: 2
            claim: true
            run: [notify-send, menu]
          - gesture: swipe
            pointers: 3
            direction: left
            session: "7"
            claim: true
            pipe: [cat]
          - gesture: tap
            run: [echo]
        """

    /// `claim: true` claims the rule's gestures with its filters; no `claim` claims nothing.
    @Test func claimsFromTheRules() throws {
        let config = try ConfigFile.parse(yaml: Self.yaml)
        #expect(config.hooks.map(\.claim) == [true, true, false])
        let settings = config.controlSettings(
            flags: SettingsUpdate(), backendAcceleration: .flat, backendKineticScrolling: true,
            hooks: config.hookRules(flags: OutputFlags()))
        #expect(
            settings.claims
                == GestureClaims([
                    GestureClaim(gestures: [.doubleTap], pointers: 2),
                    GestureClaim(gestures: [.swipe], pointers: 3, direction: .left, session: "7"),
                ]))
        let noHooks = config.controlSettings(
            flags: SettingsUpdate(), backendAcceleration: .flat, backendKineticScrolling: true,
            hooks: config.hookRules(flags: OutputFlags(noHooks: true)))
        #expect(noHooks.claims.isEmpty)
    }

    /// A claim on a gesture the computer does nothing for is refused, with the claimable ones;
    /// `claim` must be a bool.
    @Test func unclaimableGestures() {
        let found: [ConfigIssue]
        do {
            _ = try ConfigFile.parse(
                yaml: """
                    hooks:
                      - gesture: [doubleTap, rotate]
                        claim: true
                        run: [echo]
                      - gesture: rotate
                        claim: false
                        run: [echo]
                      - gesture: tap
                        claim: maybe
                        run: [echo]
                    """)
            found = []
        } catch {
            found = error.issues
        }
        #expect(found.map(\.line) == [3, 9])
        #expect(found.first?.message.contains("nothing for rotate") == true)
        #expect(found.first?.message.contains("claimable: tap, doubleTap") == true)
    }
}
