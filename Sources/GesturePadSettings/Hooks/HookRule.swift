import GestureControl
import GestureEngine
import GestureProtocol

/// One `hooks:` entry of the configuration: which events it matches and what it does with them.
public struct HookRule: Sendable, Hashable {
    /// A label for logs (`name:`, or `hook N`).
    public var name: String
    /// The gestures it matches (at least one, unless it is a rule on player events).
    public var gestures: [GestureKind]
    /// The player events it matches (`media:`; docs/outputs.md "Player events"). A rule
    /// matches gestures or player events, never both: one of the two lists is empty.
    public var media: [MediaEvent.Kind] = []
    /// Only events of this player (`player:`): its name (`Identity`, any case) or the part of
    /// its bus name after `org.mpris.MediaPlayer2.`, up to a dot (`mpv`, `spotify`, `vlc`).
    public var player: String? = nil
    /// The phases it matches; empty matches every phase.
    public var phases: [GesturePhase] = []
    public var pointers: Int? = nil
    public var direction: SwipeDirection? = nil
    public var count: Int? = nil
    /// Which swipes it matches by what they end (`ends` of the swipe event): empty matches
    /// those that end a `drag` only, so a scroll flicked up is no swipe to a hook unless the
    /// rule asks for `.scroll`.
    public var ends: [SwipeEnd] = []
    /// Exact session id to match.
    public var session: String? = nil
    /// The rule claims the gestures it matches (`claim: true`): the control mapping does not
    /// also act on them (docs/outputs.md). Default false: CONTROL.md's mapping stays whole.
    public var claim = false
    public var action: HookAction

    /// The program, as written (a name looked up in `PATH`, or a path).
    public var program: String {
        switch action {
        case .run(let o): o.program
        case .pipe(let o): o.program
        }
    }

    /// The program as it will be started: a relative path made absolute against `directory`.
    public var resolvedProgram: String { Self.resolvedPath(program, in: directory) }

    /// `program` made absolute against `directory` when it is a relative path (`./x.sh`,
    /// `bin/x`); otherwise unchanged (a name is looked up in `PATH`).
    public static func resolvedPath(_ program: String, in directory: String?) -> String {
        guard program.contains("/"), !program.hasPrefix("/"), let directory else { return program }
        return (directory.hasSuffix("/") ? directory : directory + "/") + program
    }

    /// The configuration file's folder its process starts in (nil: the server's working directory).
    public var directory: String? {
        get {
            switch action {
            case .run(let o): o.directory
            case .pipe(let o): o.directory
            }
        }
        set {
            switch action {
            case .run(var o):
                o.directory = newValue
                action = .run(o)
            case .pipe(var o):
                o.directory = newValue
                action = .pipe(o)
            }
        }
    }

    /// What the rule claims from the control mapping, if it claims (`claim`).
    public var controlClaim: GestureClaim? {
        guard claim else { return nil }
        return GestureClaim(
            gestures: gestures, pointers: pointers, count: count, direction: direction, ends: ends, session: session)
    }

    /// The claims of `rules`, in order.
    public static func claims(of rules: [HookRule]) -> GestureClaims {
        GestureClaims(rules.compactMap(\.controlClaim))
    }

    public init(name: String, gestures: [GestureKind], action: HookAction) {
        self.name = name
        self.gestures = gestures
        self.action = action
    }

    /// A rule on player events.
    public init(name: String, media: [MediaEvent.Kind], action: HookAction) {
        self.init(name: name, gestures: [], action: action)
        self.media = media
    }

    /// The placeholders a `run` rule on player events may use in its argv.
    public static let mediaPlaceholders = ["event", "status", "length"]

    /// Whether player event `event` matches. Cheap: runs on the service thread.
    public func matches(_ event: MediaEvent) -> Bool {
        guard media.contains(event.kind) else { return false }
        guard let player else { return true }
        return Self.names(player, event: event)
    }

    /// Whether `wanted` names the player of `event`.
    static func names(_ wanted: String, event: MediaEvent) -> Bool {
        if wanted.lowercased() == event.name.lowercased() { return true }
        let prefix = "org.mpris.MediaPlayer2."
        guard event.player.hasPrefix(prefix) else { return false }
        let rest = event.player.dropFirst(prefix.count)
        let first = rest.split(separator: ".", maxSplits: 1).first.map(String.init) ?? String(rest)
        return first.lowercased() == wanted.lowercased() || rest.lowercased() == wanted.lowercased()
    }

    /// Whether `event` of `session` matches. Cheap: runs on the service thread.
    public func matches(_ event: GestureEvent, session: String) -> Bool {
        guard gestures.contains(event.gesture) else { return false }
        if !phases.isEmpty, !phases.contains(event.phase) { return false }
        if let pointers, event.pointers != pointers { return false }
        if let direction {
            guard case .swipe(let s) = event.detail, s.direction == direction else { return false }
        }
        if let count {
            guard case .count(let n) = event.detail, n == count else { return false }
        }
        if case .swipe(let s) = event.detail, !(ends.isEmpty ? s.ends == .drag : ends.contains(s.ends)) { return false }
        if let wanted = self.session, wanted != session { return false }
        return true
    }
}

/// What a rule does with a matching event.
public enum HookAction: Sendable, Hashable {
    /// Start `argv` for each event (no shell), event JSON on stdin.
    case run(RunHookOptions)
    /// Feed events as JSON lines to one long-lived process.
    case pipe(PipeHookOptions)
}

/// Options of a `run` hook.
public struct RunHookOptions: Sendable, Hashable {
    /// The program, as written (a name looked up in `PATH`, or a path).
    public var program: String
    /// The arguments after the program, with placeholders.
    public var arguments: [ArgvTemplate]
    /// Seconds before the process group is killed.
    public var timeout: Double = 5
    /// Processes of this rule running at once.
    public var concurrency: Int = 1
    /// Events waiting for a free slot; more are dropped and counted.
    public var queueLimit: Int = 16
    /// The configuration file's folder (absolute): a relative program path resolves against
    /// it, and the process starts in it. Nil: the server's working directory.
    public var directory: String? = nil

    public init(program: String, arguments: [ArgvTemplate]) {
        self.program = program
        self.arguments = arguments
    }
}

/// Options of a `pipe` hook.
public struct PipeHookOptions: Sendable, Hashable {
    public var program: String
    public var arguments: [String]
    /// Events waiting to be written; past it `changed` events are coalesced, then dropped.
    public var queueLimit: Int = 256
    /// The configuration file's folder (absolute), as for `RunHookOptions.directory`.
    public var directory: String? = nil

    public init(program: String, arguments: [String]) {
        self.program = program
        self.arguments = arguments
    }
}
