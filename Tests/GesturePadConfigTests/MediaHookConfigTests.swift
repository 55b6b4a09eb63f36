import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadConfig

/// Hook rules on player events (`media:`, docs/outputs.md "Player events"): read with their
/// `player`, refused with gesture keys, with text placeholders, or with both `gesture` and `media`.
@Suite struct MediaHookConfigTests {
    @Test func readsMediaRules() throws {
        let config = try ConfigFile.parse(
            yaml: """
                hooks:
                  - name: now playing
                    media: track
                    run: [notify-send, "{event} ({status}, {length:int} ms)"]
                  - media: [paused, stopped]
                    player: spotify
                    pipe: [cat]
                """)
        #expect(config.hooks.count == 2)
        #expect(config.hooks[0].media == [.track] && config.hooks[0].gestures.isEmpty && config.hooks[0].player == nil)
        #expect(config.hooks[1].media == [.paused, .stopped] && config.hooks[1].player == "spotify")
        #expect(config.hooks.allSatisfy { $0.controlClaim == nil })
    }

    @Test func refusesWhatDoesNotApply() {
        let found: [ConfigIssue]
        do {
            _ = try ConfigFile.parse(
                yaml: """
                    hooks:
                      - media: track
                        gesture: tap
                        run: [echo]
                      - media: [track, skipped]
                        pointers: 2
                        run: [echo, "{title}"]
                      - gesture: tap
                        player: mpv
                        run: [echo]
                      - media: playing
                        claim: true
                        run: [echo, "{stauts}"]
                    """)
            found = []
        } catch {
            found = error.issues
        }
        let messages = found.map(\.message)
        #expect(messages.contains { $0.contains("both 'gesture:' and 'media:'") })
        #expect(messages.contains { $0.contains("unknown player event 'skipped'") })
        #expect(messages.contains { $0.contains("hook 2.pointers only applies to gesture rules") })
        #expect(messages.contains { $0.contains("{title} is text: read $GESTUREPAD_TITLE") })
        #expect(messages.contains { $0.contains("hook 3.player only applies to rules on player events") })
        #expect(messages.contains { $0.contains("hook 4.claim only applies to gesture rules") })
        #expect(messages.contains { $0.contains("did you mean {status}?") })
    }
}
