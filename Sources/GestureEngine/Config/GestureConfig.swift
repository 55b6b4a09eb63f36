/// Every threshold of the gesture engine, in one place (GESTURES.md "Defaults").
///
/// Distances are CSS px, times ms, velocities px/s, angles degrees. The defaults come from
/// the systems users already know; each property names its source.
public struct GestureConfig: Sendable, Hashable {
    /// Max wander for tap / long press / repeat / timed press. SwiftUI LongPressGesture
    /// maximumDistance 10, UIKit allowableMovement 10, Hammer.js 9–10.
    public var slop: Double = 10
    /// First down → last up of a tap. Hammer.js tap `time` 250.
    public var tapMaxDuration: Double = 250
    /// Last up → next down for taps to count together. Hammer.js `interval` 300,
    /// Android DOUBLE_TAP_TIMEOUT 300.
    public var multiTapInterval: Double = 300
    /// A tap starting sooner than this after the last tap's up is a bounce.
    /// Android DOUBLE_TAP_MIN_TIME 40.
    public var multiTapMinInterval: Double = 40
    /// Max distance from the sequence's first tap. Android DOUBLE_TAP_SLOP 100 dp.
    public var multiTapSlop: Double = 100
    /// Hold time for a long press. UIKit / SwiftUI 0.5 s, GestureButton 0.5 s.
    public var longPressDuration: Double = 500
    /// Hold time before the first repeat. GestureButton 0.5 s.
    public var repeatDelay: Double = 500
    /// Time between repeats. GestureButton timer 0.1 s.
    public var repeatInterval: Double = 100
    /// Tick of a timed press. fatbobman's press timer (configurable interval).
    public var timedPressInterval: Double = 100
    /// Centroid movement that starts a drag. SwiftUI DragGesture 10, Hammer.js pan 10.
    public var dragMinDistance: Double = 10
    /// Travel along the main axis for a swipe. Hammer.js 10, GestureButton 10, raised for phones.
    public var swipeMinDistance: Double = 30
    /// Release velocity along the main axis for a swipe. Hammer.js 0.3 px/ms.
    public var swipeMinVelocity: Double = 300
    /// Max contact duration of a swipe. SwiftUIKit onSwipeGesture maximumTime 1 s.
    public var swipeMaxDuration: Double = 1000
    /// Samples used for velocity. Android VelocityTracker 100 ms.
    public var velocityWindow: Double = 100
    /// Newest move this old or older at release → velocity 0.
    /// Android ASSUME_POINTER_STOPPED_TIME 40.
    public var velocityStopTime: Double = 40
    /// Per-ms deceleration for the predicted end, `d = v/1000 · r/(1−r)`.
    /// UIScrollView normal rate, WWDC18 "Designing Fluid Interfaces" projection.
    public var decelerationRate: Double = 0.998
    /// Two-finger centroid travel that makes a scroll. libinput decides the two-finger type
    /// on first movement.
    public var scrollMinDistance: Double = 10
    /// Finger-distance change that makes a transform. Android span slop = 2 × touch slop.
    public var pinchMinSpan: Double = 16
    /// Finger-angle change (degrees) that makes a transform.
    public var rotateMinAngle: Double = 10
    /// Hover `changed` events closer than this (ms) to the last one sent are dropped.
    public var hoverMinInterval: Double = 0

    /// The defaults of GESTURES.md.
    public init() {}

    /// The GESTURES.md keys, in the spec's order (from `fields`).
    public static let keys: [String] = fields.map(\.key)

    /// The value of a key of `keys`; `nil` for an unknown key.
    public func value(forKey key: String) -> Double? {
        Self.field(key).map { self[keyPath: $0.keyPath] }
    }

    /// Sets a key of `keys`. Throws `GestureConfigError` for an unknown key or a value out of
    /// its range (every value finite and ≥ 0, intervals that drive timers > 0,
    /// `decelerationRate` strictly between 0 and 1: the field's `rule`).
    public mutating func set(_ key: String, to value: Double) throws(GestureConfigError) {
        guard value.isFinite, value >= 0 else { throw .outOfRange(key: key, value: value, rule: "a finite number ≥ 0") }
        guard let field = Self.field(key) else { throw .unknownKey(key) }
        switch field.rule {
        case .nonNegative: break
        case .positive:
            guard value > 0 else { throw .outOfRange(key: key, value: value, rule: "a number > 0") }
        case .fraction:
            guard value > 0, value < 1 else { throw .outOfRange(key: key, value: value, rule: "a number between 0 and 1") }
        }
        self[keyPath: field.keyPath] = value
    }

    private static func field(_ key: String) -> Field? {
        fields.first { $0.key == key }
    }
}

/// Why a configuration value was refused.
public enum GestureConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownKey(String)
    case outOfRange(key: String, value: Double, rule: String)

    public var description: String {
        switch self {
        case .unknownKey(let key): "unknown gesture threshold '\(key)'"
        case .outOfRange(let key, let value, let rule): "'\(key)' must be \(rule), not \(value)"
        }
    }
}
