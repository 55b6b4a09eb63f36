import GestureControl
import GestureEngine
import GestureProtocol

/// A fuzz input read as one connection's traffic, line by line (docs/testing.md):
/// - an optional first line starting with `#` picks options, one letter each: `o` control
///   off (else on, the x11 backend), `u` the uinput backend's US-ASCII-only typing, `s` no
///   step hold, `p` at most 2 pointers, `h` no hello deadline, `l` low limits (256-byte
///   messages, 50 messages/s, 3 errors in a row), `b` arrival times may go backwards;
/// - `@N frame`: the server clock moves by N ms (any number; the clock stays within the
///   range `CLOCK_MONOTONIC` can take, `FuzzConnection.clockRange`), then the frame arrives;
/// - `~` a timer fires when it is due, `~N` the clock moves by N ms and a late timer fires;
/// - `!` the connection closes (later lines reach nothing: the hub has let it go);
/// - any other line is a text frame arriving now (bytes as they are, not always UTF-8).
struct ProtocolScript {
    enum Step {
        case frame(delay: Double, bytes: ArraySlice<UInt8>)
        case timer(delay: Double?)
        case close
    }

    var limits = ProtocolLimits()
    var control = ControlContext(status: .active(backend: "x11"), capabilities: ControlCapabilities(characters: .anyUnicode))
    var backwards = false
    var steps: [Step] = []

    /// The most lines read from one input.
    static let maxSteps = 2_048

    init(_ data: [UInt8]) {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
        if let first = lines.first, first.first == UInt8(ascii: "#") {
            readOptions(first)
            lines = lines.dropFirst()
        }
        for line in lines.prefix(Self.maxSteps) {
            steps.append(Self.step(line))
        }
    }

    private mutating func readOptions(_ line: ArraySlice<UInt8>) {
        for letter in line {
            switch letter {
            case UInt8(ascii: "o"): control = .off(reason: "control is off")
            case UInt8(ascii: "u"):
                control = ControlContext(
                    status: .active(backend: "uinput"), capabilities: ControlCapabilities(characters: .usLayoutASCII))
            case UInt8(ascii: "t"):
                control = ControlContext(
                    status: .active(backend: "touchpad"),
                    capabilities: ControlCapabilities(characters: .usLayoutASCII, takesContacts: true))
            case UInt8(ascii: "s"): limits.stepHoldMs = 0
            case UInt8(ascii: "p"): limits.maxPointers = 2
            case UInt8(ascii: "h"): limits.helloTimeoutMs = 0
            case UInt8(ascii: "l"):
                limits.maxMessageBytes = 256
                limits.maxMessagesPerSecond = 50
                limits.maxErrorsInARow = 3
            case UInt8(ascii: "b"): backwards = true
            default: break
            }
        }
    }

    private static func step(_ line: ArraySlice<UInt8>) -> Step {
        switch line.first {
        case UInt8(ascii: "@"):
            let rest = line.dropFirst()
            let number = rest.prefix { $0 != UInt8(ascii: " ") }
            let frame = rest.dropFirst(number.count + 1)
            return .frame(delay: Self.number(number) ?? 0, bytes: frame)
        case UInt8(ascii: "~"):
            return .timer(delay: Self.number(line.dropFirst()))
        case UInt8(ascii: "!"):
            return .close
        default:
            return .frame(delay: 0, bytes: line)
        }
    }

    /// A decimal number (`12`, `-0.5`, `1e300`); nil when there is none. Non-finite becomes
    /// the largest finite value.
    private static func number(_ text: ArraySlice<UInt8>) -> Double? {
        guard !text.isEmpty, let value = Double(String(decoding: text, as: UTF8.self)), !value.isNaN else { return nil }
        return value.isFinite ? value : (value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude)
    }
}
