import GestureControl
import GestureEngine
import GesturePadSettings
import GesturePadYAML
import GestureProtocol

/// The `hooks:` section: a list of rules whose keys (`ConfigKeys.hook`) depend on each other,
/// so a rule is read as a whole.
extension ConfigReader {
    /// `hooks:` — a list of rules.
    mutating func readHooks(_ node: YAMLNode) -> [HookRule] {
        if tagName(node) == .null { return [] }
        guard case .sequence(let sequence) = node else {
            add(node, "hooks must be a list of rules (lines starting with '- '), not \(describe(node))")
            return []
        }
        var rules: [HookRule] = []
        for (index, item) in sequence.enumerated() {
            if let rule = readHook(item, number: index + 1) { rules.append(rule) }
        }
        return rules
    }

    private mutating func readHook(_ node: YAMLNode, number: Int) -> HookRule? {
        let label = "hook \(number)"
        if tagName(node) == .null {
            add(node, "\(label) is empty; it needs at least 'gesture:' and 'run:' or 'pipe:'")
            return nil
        }
        guard let mapping = mapping(node, what: label) else { return nil }
        var values: [String: YAMLNode] = [:]
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: ConfigKeys.hook.names, section: label) else { continue }
            values[name] = value
        }
        let before = issues.count
        if let mediaNode = values["media"] {
            return readMediaHook(values, mediaNode: mediaNode, node: node, label: label)
        }
        guard let gestureNode = values["gesture"] else {
            add(node, "\(label) needs 'gesture:' (a gesture name or a list of names) or 'media:' (player events)")
            return nil
        }
        if let n = values["player"] { add(n, "\(label).player only applies to rules on player events ('media:')") }
        let gestures = names(
            gestureNode, key: "\(label).gesture", what: "gesture", parse: GestureKind.init(name:),
            all: GestureKind.allCases.map(\.name))
        let name = values["name"].flatMap { string($0, key: "\(label).name") } ?? label
        let action = readAction(values, node: node, label: label, placeholders: .gestures(gestures))
        var rule = HookRule(name: name, gestures: gestures, action: action ?? .pipe(PipeHookOptions(program: "", arguments: [])))
        if let n = values["phase"] {
            rule.phases = names(
                n, key: "\(label).phase", what: "phase", parse: GesturePhase.init(name:),
                all: GesturePhase.allCases.map(\.name))
            for phase in rule.phases
            where !gestures.isEmpty && !gestures.contains(where: { GestureCatalog.phases(of: $0).contains(phase) }) {
                add(
                    n,
                    "\(label): \(gestures.map(\.name).joined(separator: "/")) never has phase '\(phase.name)' (discrete gestures only have 'ended')"
                )
            }
        }
        if let n = values["pointers"] { rule.pointers = integer(n, key: "\(label).pointers", range: ConfigKeys.hookPointers) }
        if let n = values["count"] {
            rule.count = integer(n, key: "\(label).count", range: 1...Int.max)
            if !gestures.contains(.tap) && !gestures.contains(.repeat) {
                add(n, "\(label).count only applies to tap and repeat")
            }
        }
        if let n = values["direction"] {
            if let text = string(n, key: "\(label).direction") {
                if let d = SwipeDirection(name: text) {
                    rule.direction = d
                } else {
                    add(n, "\(label).direction: unknown direction '\(text)'; expected left, right, up or down")
                }
            }
            if !gestures.contains(.swipe) { add(n, "\(label).direction only applies to swipe") }
        }
        if let n = values["session"] { rule.session = string(n, key: "\(label).session") }
        if let n = values["claim"], let claim = boolean(n, key: "\(label).claim") {
            rule.claim = claim
            let unclaimable = gestures.filter { !GestureClaims.claimable.contains($0) }
            if claim, !unclaimable.isEmpty {
                add(
                    n,
                    "\(label).claim: the computer does nothing for \(unclaimable.map(\.name).joined(separator: ", ")), so there is nothing to claim; claimable: \(GestureClaims.claimable.map(\.name).joined(separator: ", "))"
                )
            }
        }
        readEnds(values, node: node, label: label, into: &rule)
        guard issues.count == before, action != nil else { return nil }
        return rule
    }

    /// A rule on player events (`media:`): the keys about gestures do not apply to it.
    private mutating func readMediaHook(_ values: [String: YAMLNode], mediaNode: YAMLNode, node: YAMLNode, label: String)
        -> HookRule?
    {
        let before = issues.count
        if let n = values["gesture"] {
            add(n, "\(label) has both 'gesture:' and 'media:'; a rule matches gestures or player events: write two rules")
        }
        for key in ["phase", "pointers", "count", "direction", "ends", "session", "claim"] {
            if let n = values[key] { add(n, "\(label).\(key) only applies to gesture rules, not to player events ('media:')") }
        }
        let media = names(
            mediaNode, key: "\(label).media", what: "player event", parse: MediaEvent.Kind.init(name:),
            all: MediaEvent.Kind.allCases.map(\.name))
        let name = values["name"].flatMap { string($0, key: "\(label).name") } ?? label
        let action = readAction(values, node: node, label: label, placeholders: .media)
        var rule = HookRule(name: name, media: media, action: action ?? .pipe(PipeHookOptions(program: "", arguments: [])))
        if let n = values["player"], let player = string(n, key: "\(label).player") {
            if player.isEmpty { add(n, "\(label).player must name a player (e.g. mpv, spotify, vlc)") }
            rule.player = player
        }
        guard issues.count == before, action != nil else { return nil }
        return rule
    }

    /// `ends:` (swipes that end a drag, a scroll, or both), and a two-finger swipe rule that
    /// says neither: two fingers moving together make a scroll, never a drag, so without
    /// `ends` it would only run for a rare one-finger flick after a second finger lifted.
    private mutating func readEnds(_ values: [String: YAMLNode], node: YAMLNode, label: String, into rule: inout HookRule) {
        if let n = values["ends"] {
            rule.ends = names(
                n, key: "\(label).ends", what: "swipe end", parse: SwipeEnd.init(name:), all: SwipeEnd.allCases.map(\.name))
            if !rule.gestures.contains(.swipe) { add(n, "\(label).ends only applies to swipe") }
        }
        if rule.gestures == [.swipe], rule.pointers == 2, rule.ends.isEmpty {
            add(
                values["pointers"] ?? node,
                "\(label): a two-finger swipe is the flick that ends a scroll, which hooks skip unless asked: add 'ends: scroll' (then every brisk scroll runs it), or swipe with three fingers"
            )
        }
    }

    /// What a `run` rule's placeholders may name: the fields of its gestures, or of a player event.
    private enum Placeholders {
        case gestures([GestureKind])
        case media
    }

    private mutating func readAction(_ values: [String: YAMLNode], node: YAMLNode, label: String, placeholders: Placeholders)
        -> HookAction?
    {
        switch (values["run"], values["pipe"]) {
        case (nil, nil):
            add(node, "\(label) needs 'run:' (a command per event) or 'pipe:' (one long-lived process)")
            return nil
        case (.some, .some(let p)):
            add(p, "\(label) has both 'run:' and 'pipe:'; use one")
            return nil
        case (.some(let r), nil):
            guard let items = argv(r, key: "\(label).run") else { return nil }
            let argv = items.map(\.text)
            var templates: [ArgvTemplate] = []
            for (arg, item) in items.dropFirst() {
                do {
                    let template = try ArgvTemplate(parsing: arg)
                    switch placeholders {
                    case .gestures(let gestures): checkPlaceholders(template, node: item, label: label, gestures: gestures)
                    case .media: checkMediaPlaceholders(template, node: item, label: label)
                    }
                    templates.append(template)
                } catch {
                    add(item, "\(label).run: \(error.description)")
                }
            }
            if argv[0].contains("{") { add(r, "\(label).run: the program (first item) cannot have placeholders") }
            var options = RunHookOptions(program: argv[0], arguments: templates)
            if let n = values["timeout"], let t = number(n, key: "\(label).timeout") {
                if t > 0 { options.timeout = t } else { add(n, "\(label).timeout must be > 0 seconds") }
            }
            if let n = values["concurrency"], let c = integer(n, key: "\(label).concurrency", range: ConfigKeys.hookConcurrency) {
                options.concurrency = c
            }
            if let n = values["queue"], let q = integer(n, key: "\(label).queue", range: ConfigKeys.hookQueue) {
                options.queueLimit = q
            }
            return .run(options)
        case (nil, .some(let p)):
            for key in ["timeout", "concurrency"] {
                if let n = values[key] { add(n, "\(label).\(key) only applies to run hooks") }
            }
            guard let argv = argv(p, key: "\(label).pipe")?.map(\.text) else { return nil }
            if argv.contains(where: { $0.contains("{") && (try? ArgvTemplate(parsing: $0))?.isLiteral == false }) {
                add(p, "\(label).pipe: placeholders only work in run hooks (a pipe starts once, at launch)")
            }
            var options = PipeHookOptions(program: argv[0], arguments: Array(argv.dropFirst()))
            if let n = values["queue"], let q = integer(n, key: "\(label).queue", range: ConfigKeys.hookPipeQueue) {
                options.queueLimit = q
            }
            return .pipe(options)
        }
    }

    /// An argv: a non-empty list of texts. A single string is refused: there is no shell.
    private mutating func argv(_ node: YAMLNode, key: String) -> [(text: String, node: YAMLNode)]? {
        guard case .sequence(let sequence) = node else {
            if case .scalar(let s) = node {
                add(
                    node,
                    "\(key) must be a list (argv), not the text '\(s.string)': commands never go through a shell; write e.g. [notify-send, \"Double tap\"]"
                )
            } else {
                add(node, "\(key) must be a list (argv), not \(describe(node))")
            }
            return nil
        }
        var argv: [(text: String, node: YAMLNode)] = []
        for item in sequence {
            // Any scalar is taken as its literal text: in argv `on`, `yes` or `1` mean the word.
            guard let text = item.scalar?.string, tagName(item) != .null else {
                add(item, "\(key) items must be text, not \(describe(item))")
                return nil
            }
            guard !text.contains("\0") else {
                add(item, "\(key) items must not contain a NUL character")
                return nil
            }
            argv.append((text, item))
        }
        guard let first = argv.first?.text, !first.isEmpty else {
            add(node, "\(key) must name a program as its first item")
            return nil
        }
        return argv
    }

    /// Every placeholder must name a numeric or enumerated field of every gesture matched.
    private mutating func checkPlaceholders(_ template: ArgvTemplate, node: YAMLNode, label: String, gestures: [GestureKind]) {
        for field in template.fields {
            if field == "session" {
                add(
                    node,
                    "\(label).run: {session} is not allowed in argv (it is text a client may influence); read $GESTUREPAD_SESSION or the JSON on stdin"
                )
                continue
            }
            if GestureCatalog.commonFields.contains(field) { continue }
            let missing = gestures.filter { !GestureCatalog.ownFields(of: $0).contains(field) }
            guard !missing.isEmpty else { continue }
            var message = "\(label).run: placeholder {\(field)} is not a field of \(missing.map(\.name).joined(separator: ", "))"
            let having = gestures.filter { GestureCatalog.ownFields(of: $0).contains(field) }
            if !having.isEmpty {
                // The name is right, the rule too wide: say who has it, suggest nothing.
                message += " (only of \(having.map(\.name).joined(separator: ", ")): give those their own rule)"
            } else if let guess = Suggestion.closest(to: field, in: Self.fieldsOfEvery(gestures)) {
                message += " (did you mean {\(guess)}?)"
            }
            add(node, message)
        }
    }

    /// A player event's placeholders: its enumerated and numeric fields only; its texts (title,
    /// artist, the player's name) come from files and other programs, so they are data on
    /// stdin and in the environment, never argv.
    private mutating func checkMediaPlaceholders(_ template: ArgvTemplate, node: YAMLNode, label: String) {
        for field in template.fields where !HookRule.mediaPlaceholders.contains(field) {
            var message = "\(label).run: placeholder {\(field)} is not a field of a player event"
            if ["title", "artist", "album", "player", "name"].contains(field) {
                message +=
                    " ({\(field)} is text: read $GESTUREPAD_\(field == "name" ? "PLAYER_NAME" : field.uppercased()) or the JSON on stdin)"
            } else if let guess = Suggestion.closest(to: field, in: HookRule.mediaPlaceholders) {
                message += " (did you mean {\(guess)}?)"
            }
            message += "; a player event has {\(HookRule.mediaPlaceholders.joined(separator: "}, {"))}"
            add(node, message)
        }
    }

    /// The placeholders valid for every gesture of `gestures`: the only useful suggestions.
    private static func fieldsOfEvery(_ gestures: [GestureKind]) -> [String] {
        let own = gestures.map { Set(GestureCatalog.ownFields(of: $0)) }
        let shared = own.dropFirst().reduce(own.first ?? []) { $0.intersection($1) }
        return GestureCatalog.commonFields + shared.sorted()
    }

    /// A name or a list of names, each parsed by `parse`.
    private mutating func names<T>(_ node: YAMLNode, key: String, what: String, parse: (String) -> T?, all: [String]) -> [T] {
        let items: [YAMLNode]
        if case .sequence(let s) = node { items = Array(s) } else { items = [node] }
        var out: [T] = []
        for item in items {
            guard let text = string(item, key: key) else { continue }
            if let value = parse(text) {
                out.append(value)
            } else {
                var message = "\(key): unknown \(what) '\(text)'"
                if let guess = Suggestion.closest(to: text, in: all) { message += " (did you mean '\(guess)'?)" }
                message += "; known: \(all.joined(separator: ", "))"
                add(item, message)
            }
        }
        if items.isEmpty { add(node, "\(key) must name at least one \(what)") }
        return out
    }
}
