import CUInput

/// One Linux `struct input_event` (linux/input.h) as the uinput backend writes it: on 64-bit
/// Linux 24 bytes in native byte order — a 16-byte `timeval` (written as zeros: the kernel
/// stamps injected events itself), `u16 type`, `u16 code`, `s32 value`. The shim pins the
/// layout with `_Static_assert`, and `UInputDevice` checks it again at run time.
struct InputEvent: Sendable, Hashable, CustomStringConvertible {
    var type: UInt16
    var code: UInt16
    var value: Int32

    static let byteCount = 24
    private static let timeBytes = 16

    static let keyType = UInt16(EV_KEY)
    static let relativeType = UInt16(EV_REL)
    static let absoluteType = UInt16(EV_ABS)
    static let synType = UInt16(EV_SYN)

    /// `EV_SYN SYN_REPORT 0`: the events since the previous one form one group.
    static let report = InputEvent(type: synType, code: UInt16(SYN_REPORT), value: 0)

    static func key(_ code: EvdevCode, down: Bool) -> InputEvent {
        InputEvent(type: keyType, code: code, value: down ? 1 : 0)
    }

    static func relative(_ axis: Int32, _ value: Int) -> InputEvent {
        InputEvent(type: relativeType, code: UInt16(axis), value: Int32(clamping: value))
    }

    static func absolute(_ axis: Int32, _ value: Int32) -> InputEvent {
        InputEvent(type: absoluteType, code: UInt16(axis), value: value)
    }

    /// Appends the event's bytes to `bytes`.
    func append(to bytes: inout [UInt8]) {
        for _ in 0..<Self.timeBytes { bytes.append(0) }
        Self.appendNative(UInt32(type), byteCount: 2, to: &bytes)
        Self.appendNative(UInt32(code), byteCount: 2, to: &bytes)
        Self.appendNative(UInt32(bitPattern: value), byteCount: 4, to: &bytes)
    }

    /// Reads back whole events from `bytes` (what a reader of the device would see); a
    /// trailing partial event is ignored.
    static func decode(_ bytes: [UInt8]) -> [InputEvent] {
        stride(from: 0, through: bytes.count - byteCount, by: byteCount).map { start in
            let typeAt = start + timeBytes
            return InputEvent(
                type: UInt16(readNative(bytes, at: typeAt, byteCount: 2)),
                code: UInt16(readNative(bytes, at: typeAt + 2, byteCount: 2)),
                value: Int32(bitPattern: readNative(bytes, at: typeAt + 4, byteCount: 4))
            )
        }
    }

    var description: String { "(\(type), \(code), \(value))" }

    private static func appendNative(_ value: UInt32, byteCount: Int, to bytes: inout [UInt8]) {
        for index in 0..<byteCount {
            #if _endian(little)
                let shift = index * 8
            #else
                let shift = (byteCount - 1 - index) * 8
            #endif
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    private static func readNative(_ bytes: [UInt8], at start: Int, byteCount: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<byteCount {
            #if _endian(little)
                let shift = index * 8
            #else
                let shift = (byteCount - 1 - index) * 8
            #endif
            value |= UInt32(bytes[start + index]) << UInt32(shift)
        }
        return value
    }
}
