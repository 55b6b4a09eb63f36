import GesturePadSettings

extension ConfigKeys {
    /// A rule of `hooks:` — the sinks' `HookRule` (docs/outputs.md). Its keys depend on each
    /// other (`run` or `pipe`, `count` only for taps …), so `readHook` reads a rule as a whole;
    /// this table gives the names it allows, their ranges and the docs.
    public static let hook = ConfigSection(
        "hooks",
        [
            .rule("name", kind: "text", default: "`hook N`", "label in diagnostics"),
            .rule(
                "gesture", kind: "name or list",
                "**required** (or `media`): gestures matched ([gestures.md](gestures.md) names)"),
            .rule(
                "media", kind: "name or list",
                "instead of `gesture`: player events matched — `track`, `playing`, `paused`, `stopped`, `appeared`, `left` ([below](#player-events))"
            ),
            .rule(
                "player", kind: "text", "`media` rules only: only this player (`mpv`, `spotify`, `vlc`: its name or bus name)"),
            .rule("phase", kind: "name or list", default: "every phase", "`began`, `changed`, `ended`, `cancelled`"),
            .rule("pointers", kind: kind(hookPointers), "the event's `pointers` must equal it"),
            .rule("direction", kind: "`left` / `right` / `up` / `down`", "swipe direction"),
            .rule(
                "ends", kind: "`drag` / `scroll` or both", default: "`drag`",
                "swipes that end this: a two-finger swipe ends a scroll, which a rule skips unless it says `scroll`"),
            .rule("count", kind: "integer ≥ 1", "`tap` / `repeat` count (e.g. `count: 3` for a triple tap)"),
            .rule("session", kind: "text", "only this session id"),
            .rule(
                "claim", kind: "bool", default: "`false`",
                "`true`: the computer does not also do what the control mapping (docs/control.md) maps the gesture to (the hook claims it: [below](#claiming-a-gesture))"
            ),
            .rule("run", kind: "list", "argv started for each matching event"),
            .rule("pipe", kind: "list", "argv of one long-lived process fed matching events"),
            .rule(
                "timeout", kind: "number > 0", default: ConfigReference.number(runDefaults.timeout) + " s",
                "`run` only: seconds before the process group is killed"),
            .rule(
                "concurrency", kind: kind(hookConcurrency), default: "\(runDefaults.concurrency)",
                "`run` only: processes of this rule at once"),
            .rule(
                "queue", kind: kind(hookQueue),
                default: "\(runDefaults.queueLimit) (`run`), \(pipeDefaults.queueLimit) (`pipe`)",
                "`run`: events waiting for a free slot; `pipe` (≥ \(hookPipeQueue.lowerBound)): events waiting to be written"),
        ])

    /// `pointers:` of a rule.
    static let hookPointers = 0...64
    /// `concurrency:` of a `run` rule.
    static let hookConcurrency = 1...64
    /// `queue:` of a `run` rule.
    static let hookQueue = 0...100_000
    /// `queue:` of a `pipe` rule.
    static let hookPipeQueue = 1...100_000

    private static let runDefaults = RunHookOptions(program: "", arguments: [])
    private static let pipeDefaults = PipeHookOptions(program: "", arguments: [])

    private static func kind(_ range: ClosedRange<Int>) -> String {
        "integer \(range.lowerBound)–\(range.upperBound)"
    }
}
