/// Reads a fuzz input as a stream of small decisions. Past the end every read is 0, so any
/// byte string decodes to something and a mutation changes only what it touches.
///
/// Numbers share one encoding (the corpus generator, Fuzz/make-corpus.py, writes it too):
/// a tag byte, then
/// - `0x00…0xEF`: a small value chosen by the caller's `small` function (a time step, a
///   coordinate), so most mutations stay realistic;
/// - `0xF0…0xFE`: an extreme from `extremes`;
/// - `0xFF`: the next 8 bytes, little-endian, as a `Double` (NaN becomes 0 and ±∞ the
///   largest finite value: the messages the engine gets are NaN-free and finite).
public struct FuzzBytes {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { index >= bytes.count }

    /// The next byte (0 past the end).
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next `count` bytes (fewer at the end).
    public mutating func bytes(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, index + max(count, 0))
        defer { index = end }
        return bytes[min(index, end)..<end]
    }

    /// A choice among `count` cases (0 ..< count).
    public mutating func choice(_ count: Int) -> Int {
        Int(byte()) % max(count, 1)
    }

    /// The next bit of a flag byte read with `byte()`.
    public static func flag(_ flags: UInt8, _ bit: Int) -> Bool {
        flags & (1 << UInt8(bit)) != 0
    }

    /// Extremes every number may take: the documented limits and one past them, the values
    /// of the audit's findings, and the ends of `Double`.
    public static let extremes: [Double] = [
        0, -0.0, 1e12, -1e12, 1e12 + 1, 9.3e20, 1e19, 0x1p60, -0x1p60, 1e6, -1e6,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300,
    ]

    /// A number: `small(tag)` for tags below 0xF0, else an extreme or 8 raw bytes.
    public mutating func number(small: (UInt8) -> Double) -> Double {
        let tag = byte()
        switch tag {
        case 0..<0xF0:
            return small(tag)
        case 0xFF:
            var bits: UInt64 = 0
            for (shift, b) in bytes(8).enumerated() { bits |= UInt64(b) << UInt64(8 * shift) }
            let value = Double(bitPattern: bits)
            if value.isNaN { return 0 }
            if value.isInfinite { return value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude }
            return value
        default:
            return Self.extremes[Int(tag - 0xF0) % Self.extremes.count]
        }
    }

    /// A pointer id: small ids (0–15, so pointers meet), negative ones, the ends of `Int`,
    /// or 8 raw bytes.
    public mutating func pointerID() -> Int {
        let tag = byte()
        switch tag {
        case 0..<0x80: return Int(tag & 0x0F)
        case 0xFC: return .max
        case 0xFD: return .min
        case 0xFE: return 1 << 53
        case 0xFF:
            var bits: UInt64 = 0
            for (shift, b) in bytes(8).enumerated() { bits |= UInt64(b) << UInt64(8 * shift) }
            return Int(truncatingIfNeeded: bits)
        default: return Int(Int8(bitPattern: tag))
        }
    }
}
