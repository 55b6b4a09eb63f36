extension GestureConfig {
    /// One threshold as the configuration file and the `welcome` message name it: its key,
    /// where it is stored, the values it accepts, its unit and what it bounds (GESTURES.md
    /// "Thresholds and their defaults"). Its default is `GestureConfig()[keyPath: keyPath]`.
    public struct Field: Sendable {
        public let key: String
        public let keyPath: WritableKeyPath<GestureConfig, Double> & Sendable
        public let rule: Rule
        /// `px`, `ms`, `px/s`, `per ms` or `°`.
        public let unit: String
        /// One line: what the threshold bounds.
        public let meaning: String
    }

    /// The values a threshold accepts, besides being finite.
    public enum Rule: Sendable, Hashable {
        /// ≥ 0.
        case nonNegative
        /// > 0: an interval that drives a timer.
        case positive
        /// Strictly between 0 and 1.
        case fraction
    }

    /// Every threshold, in the spec's order: the one list of the keys.
    public static let fields: [Field] = [
        Field(
            key: "slop", keyPath: \.slop, rule: .nonNegative, unit: "px",
            meaning: "how far a tap, long press, repeat or timed press may wander"),
        Field(
            key: "tapMaxDuration", keyPath: \.tapMaxDuration, rule: .nonNegative, unit: "ms",
            meaning: "from the first down to the last up of a tap"),
        Field(
            key: "multiTapInterval", keyPath: \.multiTapInterval, rule: .nonNegative, unit: "ms",
            meaning: "from the last up to the next down, for taps to chain"),
        Field(
            key: "multiTapMinInterval", keyPath: \.multiTapMinInterval, rule: .nonNegative, unit: "ms",
            meaning: "a tap that starts sooner than this after the previous tap's up is a bounce"),
        Field(
            key: "multiTapSlop", keyPath: \.multiTapSlop, rule: .nonNegative, unit: "px",
            meaning: "how far a chained tap may be from the first tap of its sequence"),
        Field(
            key: "longPressDuration", keyPath: \.longPressDuration, rule: .nonNegative, unit: "ms",
            meaning: "hold time of a long press"),
        Field(
            key: "repeatDelay", keyPath: \.repeatDelay, rule: .nonNegative, unit: "ms",
            meaning: "hold time before the first repeat"),
        Field(
            key: "repeatInterval", keyPath: \.repeatInterval, rule: .positive, unit: "ms",
            meaning: "time between two repeats"),
        Field(
            key: "timedPressInterval", keyPath: \.timedPressInterval, rule: .positive, unit: "ms",
            meaning: "tick of a timed press"),
        Field(
            key: "dragMinDistance", keyPath: \.dragMinDistance, rule: .nonNegative, unit: "px",
            meaning: "centroid travel that starts a drag"),
        Field(
            key: "swipeMinDistance", keyPath: \.swipeMinDistance, rule: .nonNegative, unit: "px",
            meaning: "travel along the main axis of a swipe"),
        Field(
            key: "swipeMinVelocity", keyPath: \.swipeMinVelocity, rule: .nonNegative, unit: "px/s",
            meaning: "speed along the main axis when the swipe's phase ends"),
        Field(
            key: "swipeMaxDuration", keyPath: \.swipeMaxDuration, rule: .nonNegative, unit: "ms",
            meaning: "longest contact that can still be a swipe"),
        Field(
            key: "velocityWindow", keyPath: \.velocityWindow, rule: .nonNegative, unit: "ms",
            meaning: "age of the samples a velocity is computed from"),
        Field(
            key: "velocityStopTime", keyPath: \.velocityStopTime, rule: .nonNegative, unit: "ms",
            meaning: "if the newest sample is at least this old at a release, the velocity is 0"),
        Field(
            key: "decelerationRate", keyPath: \.decelerationRate, rule: .fraction, unit: "per ms",
            meaning: "predicted further travel `d = v/1000 · r/(1−r)`"),
        Field(
            key: "scrollMinDistance", keyPath: \.scrollMinDistance, rule: .nonNegative, unit: "px",
            meaning: "two-finger centroid travel that makes a scroll"),
        Field(
            key: "pinchMinSpan", keyPath: \.pinchMinSpan, rule: .nonNegative, unit: "px",
            meaning: "change of the distance between two fingers that makes a transform"),
        Field(
            key: "rotateMinAngle", keyPath: \.rotateMinAngle, rule: .nonNegative, unit: "°",
            meaning: "change of the angle between two fingers that makes a transform"),
        Field(
            key: "hoverMinInterval", keyPath: \.hoverMinInterval, rule: .nonNegative, unit: "ms",
            meaning: "hover `changed` events nearer than this to the previous one sent are dropped"),
    ]
}
