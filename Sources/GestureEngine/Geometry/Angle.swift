#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plane helpers the engine needs beyond the standard library (pure math, no I/O).
enum Angle {
    /// The direction of the vector (dx, dy) in degrees, in page coordinates (y down), so
    /// clockwise on screen is positive — the sign of `atan2`, as in UIKit and Hammer.js.
    static func degrees(dx: Double, dy: Double) -> Double {
        atan2(dy, dx) * 180 / Double.pi
    }

    /// The smallest signed difference `to − from`, in (−180, 180].
    static func delta(from: Double, to: Double) -> Double {
        var d = (to - from).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        return d
    }

    /// The Euclidean length of (dx, dy).
    @inline(__always)
    static func length(dx: Double, dy: Double) -> Double {
        (dx * dx + dy * dy).squareRoot()
    }
}
