import Foundation
import GestureControl
import GestureEngine
import GesturePadSettings
import Testing

@testable import GesturePadConfig

@Suite struct ConfigFileTests {
    /// Parses YAML and returns its issues (none for a valid file).
    private func issues(_ yaml: String) -> [ConfigIssue] {
        do {
            _ = try ConfigFile.parse(yaml: yaml)
            return []
        } catch {
            return error.issues
        }
    }

    /// A complete file fills every section: server, limits, thresholds, log and hooks.
    @Test func completeFile() throws {
        let config = try ConfigFile.parse(
            yaml: """
                server:
                  host: 0.0.0.0
                  port: 8443
                  public: ./Public
                  token: 12345
                  auth: false
                  limits:
                    maxConnections: 8
                    maxMessageBytes: 32768
                    maxMessagesPerSecond: 500
                    maxErrorsInARow: 5
                    maxPointers: 4
                gestures:
                  slop: 12
                  decelerationRate: 0.99
                log:
                  json: /tmp/g.jsonl
                  verbose: true
                  color: auto
                hooks:
                  - name: play
                    gesture: doubleTap
                    pointers: 2
                    run: [playerctl, play-pause]
                    timeout: 1.5
                    concurrency: 2
                    queue: 4
                  - gesture: [drag, scroll]
                    phase: [began, changed]
                    pipe: [python3, pipe.py]
                    queue: 64
                  - gesture: swipe
                    direction: left
                    run: [xdotool, key, "ctrl+alt+Left", "{distance:int}"]
                """)
        #expect(config.server.host == "0.0.0.0")
        #expect(config.server.port == 8443)
        #expect(config.server.publicDirectory == "./Public")
        #expect(config.server.token == "12345")
        #expect(config.server.auth == false)
        #expect(config.server.maxConnections == 8)
        #expect(config.server.maxMessageBytes == 32768)
        #expect(config.server.maxMessagesPerSecond == 500)
        #expect(config.server.maxErrorsInARow == 5)
        #expect(config.server.maxPointers == 4)
        #expect(config.gestures.slop == 12)
        #expect(config.gestures.decelerationRate == 0.99)
        #expect(config.gestures.tapMaxDuration == GestureConfig().tapMaxDuration)
        #expect(config.log.jsonPath == "/tmp/g.jsonl")
        #expect(config.log.verbose == true)
        #expect(config.log.color == nil)
        #expect(config.hooks.count == 3)
        #expect(config.hooks[0].name == "play")
        #expect(config.hooks[0].pointers == 2)
        guard case .run(let run) = config.hooks[0].action else { Issue.record("not run"); return }
        #expect(run.program == "playerctl")
        #expect(run.timeout == 1.5 && run.concurrency == 2 && run.queueLimit == 4)
        #expect(config.hooks[1].gestures == [.drag, .scroll])
        #expect(config.hooks[1].phases == [.began, .changed])
        guard case .pipe(let pipe) = config.hooks[1].action else { Issue.record("not pipe"); return }
        #expect(pipe.program == "python3" && pipe.arguments == ["pipe.py"] && pipe.queueLimit == 64)
        #expect(config.hooks[2].direction == .left)
    }

    /// Every GESTURES.md threshold can be set from the file.
    @Test func everyThresholdKey() throws {
        let yaml =
            "gestures:\n"
            + GestureConfig.keys.enumerated().map { i, key in
                "  \(key): \(key == "decelerationRate" ? "0.5" : String(i + 1))"
            }.joined(separator: "\n")
        let config = try ConfigFile.parse(yaml: yaml)
        for (i, key) in GestureConfig.keys.enumerated() {
            #expect(config.gestures.value(forKey: key) == (key == "decelerationRate" ? 0.5 : Double(i + 1)), "\(key)")
        }
    }

    /// Unknown keys are reported at their line, with a suggestion.
    @Test func unknownKeys() {
        let found = issues(
            """
            server:
              port: 80
              prot: 81
            gestures:
              slopp: 3
            colour: true
            hooks:
              - gesture: tap
                run: [true]
                timout: 2
            """)
        #expect(found.map(\.line) == [3, 5, 6, 10])
        #expect(found[0].message.contains("'prot'") && found[0].message.contains("did you mean 'port'"))
        #expect(found[1].message.contains("'slopp'") && found[1].message.contains("'slop'"))
        #expect(found[2].message.contains("'colour'"))
        #expect(found[3].message.contains("'timout'") && found[3].message.contains("'timeout'"))
    }

    /// Values of the wrong type are reported at their line and column.
    @Test func wrongTypes() {
        let found = issues(
            """
            server:
              port: "8080"
              auth: maybe
              limits:
                maxPointers: 2.5
            gestures:
              slop: ten
              tapMaxDuration: [1]
            log:
              verbose: 1
            hooks:
              - gesture: tap
                run: [echo]
                timeout: soon
            """)
        #expect(found.map(\.line) == [2, 3, 5, 7, 8, 10, 14])
        #expect(found[0].message == "server.port must be an integer, not the text '8080'")
        #expect(found[0].column == 9)
        #expect(found[3].message.contains("gestures.slop must be a number"))
        #expect(found[4].message.contains("not a list"))
    }

    /// Out-of-range thresholds use the engine's own rules.
    @Test func outOfRangeThreshold() {
        let found = issues("gestures:\n  decelerationRate: 1.5\n  repeatInterval: 0\n  slop: -1\n")
        #expect(found.map(\.line) == [2, 3, 4])
    }

    /// Unknown gesture names, phases and directions are reported with their lines.
    @Test func unknownGestureNames() {
        let found = issues(
            """
            hooks:
              - gesture: dubbleTap
                run: [echo]
              - gesture: [tap, swipe, pinchh]
                run: [echo]
              - gesture: drag
                phase: moved
                run: [echo]
              - gesture: swipe
                direction: north
                run: [echo]
              - gesture: tap
                phase: began
                run: [echo]
            """)
        #expect(found.map(\.line) == [2, 4, 7, 10, 13])
        #expect(found[0].message.contains("unknown gesture 'dubbleTap'") && found[0].message.contains("'doubleTap'"))
        #expect(found[1].message.contains("'pinchh'") && found[1].column == 27)
        #expect(found[2].message.contains("unknown phase 'moved'"))
        #expect(found[3].message.contains("unknown direction 'north'"))
        #expect(found[4].message.contains("never has phase 'began'"))
    }

    /// `ends` picks the swipes a rule wants by what they end; a two-finger swipe rule that says
    /// nothing about it (two fingers make a scroll) is refused, as is `ends` on a rule without
    /// swipes.
    @Test func swipeEnds() throws {
        let config = try ConfigFile.parse(
            yaml: """
                hooks:
                  - {gesture: swipe, pointers: 2, ends: scroll, run: [echo]}
                  - {gesture: swipe, ends: [drag, scroll], run: [echo]}
                  - {gesture: swipe, pointers: 3, run: [echo]}
                  - {gesture: swipe, pointers: 2, ends: drag, run: [echo]}
                """)
        #expect(config.hooks.map(\.ends) == [[.scroll], [.drag, .scroll], [], [.drag]])
        func swipe(_ pointers: Int, _ ends: SwipeEnd) -> GestureEvent {
            GestureEvent(
                gesture: .swipe, phase: .ended, t: 0, x: 0, y: 0, pointers: pointers,
                detail: .swipe(SwipeFields(direction: .up, distance: 100, velocity: 900, duration: 100, ends: ends)))
        }
        #expect(config.hooks.map { $0.matches(swipe(2, .scroll), session: "1") } == [true, true, false, false])
        #expect(config.hooks.map { $0.matches(swipe(3, .drag), session: "1") } == [false, true, true, false])
        #expect(config.hooks.map { $0.matches(swipe(3, .scroll), session: "1") } == [false, true, false, false])
        #expect(config.hooks.map { $0.matches(swipe(2, .drag), session: "1") } == [false, true, false, true])
        let found = issues(
            """
            hooks:
              - gesture: swipe
                pointers: 2
                run: [echo]
              - gesture: tap
                ends: scroll
                run: [echo]
              - gesture: swipe
                ends: flick
                run: [echo]
            """)
        #expect(found.map(\.line) == [3, 6, 9])
        #expect(found[0].message.contains("add 'ends: scroll'"))
        #expect(found[1].message.contains("ends only applies to swipe"))
        #expect(found[2].message.contains("'flick'"))
    }

    /// argv must be a list (no shell), name a program, and use only placeholders the gesture has.
    @Test func badArgv() {
        let found = issues(
            """
            hooks:
              - gesture: tap
                run: notify-send "tap"; rm -rf ~
              - gesture: tap
                run: []
              - gesture: tap
                run: [echo, "{ddx}"]
              - gesture: drag
                run: [echo, "{session}"]
              - gesture: drag
                run: [echo, "{ddx"]
              - gesture: drag
                pipe: [cat, "{ddx}"]
              - gesture: drag
              - gesture: drag
                run: [echo]
                pipe: [cat]
              - gesture: tap
                direction: left
                run: [echo]
            """)
        #expect(found.map(\.line) == [3, 5, 7, 9, 11, 13, 14, 17, 19])
        #expect(found[0].message.contains("never go through a shell"))
        #expect(found[2].message.contains("{ddx} is not a field of tap"))
        #expect(found[3].message.contains("{session} is not allowed"))
        #expect(found[4].message.contains("unclosed"))
        #expect(found[5].message.contains("placeholders only work in run hooks"))
        #expect(found[6].message.contains("needs 'run:'"))
        #expect(found[7].message.contains("both"))
    }

    /// A placeholder that only some matched gestures have is refused without suggesting itself:
    /// the message names the gestures that have it; a misspelling still gets a suggestion from
    /// the fields every matched gesture has.
    @Test func placeholderOfSomeGesturesOnly() {
        let found = issues(
            """
            hooks:
              - gesture: [press, tap]
                run: [echo, "{pointerType}"]
              - gesture: [press, hover]
                run: [echo, "{pointertype}"]
              - gesture: [drag, scroll]
                run: [echo, "{dxx}"]
              - gesture: [drag, tap]
                run: [echo, "{dx}"]
            """)
        #expect(found.map(\.line) == [3, 5, 7, 9])
        #expect(found[0].message.contains("{pointerType} is not a field of tap"))
        #expect(!found[0].message.contains("did you mean"), "\(found[0].message)")
        #expect(found[0].message.contains("only of press"))
        #expect(found[1].message.contains("did you mean {pointerType}?"))  // a different spelling
        #expect(found[2].message.contains("did you mean {ddx}?") || found[2].message.contains("did you mean {dx}?"))
        #expect(found[3].message.contains("{dx} is not a field of tap") && found[3].message.contains("only of drag"))
        #expect(!found[3].message.contains("did you mean {dx}"), "\(found[3].message)")
    }

    /// Placeholders valid for every matched gesture are accepted; common fields always are.
    @Test func validPlaceholders() throws {
        let config = try ConfigFile.parse(
            yaml: """
                hooks:
                  - gesture: [drag, scroll]
                    run: [echo, "{ddx:int}", "{gesture}/{phase}", "{x},{y}", "{{literal}}"]
                """)
        guard case .run(let run) = config.hooks[0].action else { Issue.record("not run"); return }
        #expect(run.arguments.count == 4)
    }

    /// YAML syntax errors and duplicate keys are reported with a line number.
    @Test func syntaxErrors() {
        #expect(issues("server:\n  port: [8080\n").first?.line ?? 0 > 0)
        let duplicate = issues("server:\n  port: 1\n  port: 2\n")
        #expect(duplicate.count == 1)
        #expect(duplicate.first?.line ?? 0 > 0)
    }

    /// An empty file or a comment-only file is an empty configuration.
    @Test func emptyFile() throws {
        #expect(try ConfigFile.parse(yaml: "").hooks.isEmpty)
        #expect(try ConfigFile.parse(yaml: "# nothing\n").gestures == GestureConfig())
        #expect(!issues("- just\n- a list\n").isEmpty)
        // Sections whose lines are all commented out are empty, not errors.
        #expect(issues("server:\n  # port: 1\nlog:\nhooks:\ngestures:\n").isEmpty)
        #expect(issues("hooks:\n  -\n  - gesture: tap\n    run: [x]\n").map(\.line) == [2])
    }

    /// The error description uses FILE:LINE:COLUMN so editors can jump to it.
    @Test func errorDescription() {
        do {
            _ = try ConfigFile.parse(yaml: "gestures:\n  slopp: 1\n", path: "my.yaml")
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("my.yaml:2:3: error: unknown key 'slopp'"))
        }
    }
}

@Suite struct ExampleConfigTests {
    /// The shipped examples/gesturepad.yaml is valid, sets the control section and maps media keys and
    /// notifications; no rule of it runs on the flick that ends a two-finger scroll (issue 28).
    @Test func exampleConfigIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let config = try ConfigFile.load(path: root.appendingPathComponent("examples/gesturepad.yaml").path)
        let programs = config.hooks.map { rule -> String in
            switch rule.action {
            case .run(let o): o.program
            case .pipe(let o): o.arguments.first ?? o.program
            }
        }
        #expect(programs.contains("playerctl"))
        #expect(programs.contains("notify-send"))
        let scrollFlick = GestureEvent(
            gesture: .swipe, phase: .ended, t: 0, x: 0, y: 0, pointers: 2,
            detail: .swipe(SwipeFields(direction: .up, distance: 180, velocity: 900, duration: 200, ends: .scroll)))
        #expect(config.hooks.allSatisfy { !$0.matches(scrollFlick, session: "1") })
        let fourFingers = GestureEvent(
            gesture: .swipe, phase: .ended, t: 0, x: 0, y: 0, pointers: 4,
            detail: .swipe(SwipeFields(direction: .up, distance: 180, velocity: 900, duration: 200)))
        #expect(config.hooks.filter { $0.matches(fourFingers, session: "1") }.map(\.name) == ["volume-up"])
        #expect(config.controlBackend == .auto)
        #expect(config.controlAcceleration == nil)  // the backend's: never twice
        #expect(config.control == ControlSettings())
        // Copied as it is, it never moves the server (issue 42): where it listens stays the default.
        #expect(config.server.host == nil && config.server.port == nil)
    }
}
