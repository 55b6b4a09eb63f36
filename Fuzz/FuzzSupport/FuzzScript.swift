import GestureControl
import GestureEngine

/// One thing a host does to a touchpad connection's engine and mapper.
public enum FuzzStep: Sendable {
    /// A pointer message (any numbers, any ids, any order).
    case input(PointerInput)
    /// The end of a frame: the host judges a held move step (`flush`).
    case frameEnd
    /// A host timer fired at page time `t` (any `t`, also in the past).
    case advance(Double)
    /// A host timer fired exactly at the next deadline, as the server arms it.
    case advanceToDeadline
    /// A keyboard / button-bar command.
    case command(ControlCommand)
    /// The page's settings sheet.
    case settings(SettingsUpdate)
    /// The connection went silent, or the server stops: everything is released.
    case releaseAll
}

/// A fuzz input decoded as a touchpad connection's life: the thresholds, the surface and
/// the control settings, then steps. Structurally valid by construction (every step is a
/// well-formed value), with any numbers. The byte layout is documented in docs/testing.md
/// and written by Fuzz/make-corpus.py.
public struct FuzzScript {
    public var config = GestureConfig()
    public var width = 400.0
    public var height = 800.0
    public var maxPointers = 10
    public var settings = ControlSettings()
    /// Mapped touches, or contacts passed through (FuzzControl).
    public var routing = TouchRouting.gestures
    public var steps: [FuzzStep] = []

    /// The most steps decoded from one input (a long input is not a deeper test).
    public static let maxSteps = 4_096

    public init(_ data: [UInt8]) {
        var input = FuzzBytes(data)
        readHeader(&input)
        var clock = FuzzClock()
        while !input.isAtEnd, steps.count < Self.maxSteps {
            steps.append(Self.step(&input, &clock))
        }
    }

    // MARK: Header

    private mutating func readHeader(_ input: inout FuzzBytes) {
        // Threshold overrides, kept only when `GestureConfig.set` accepts them (as the
        // configuration reader does).
        for _ in 0..<(input.choice(4)) {
            let key = GestureConfig.keys[input.choice(GestureConfig.keys.count)]
            let value = input.number { Double($0) }
            try? config.set(key, to: value)
        }
        width = input.number { Double($0) * 8 }
        height = input.number { Double($0) * 8 }
        // 0–9: that many pointers + 1, touches mapped; 10–19: the same, touches passed through
        // as contacts (the `touchpad` backend's routing).
        let pointers = input.choice(20)
        maxPointers = 1 + pointers % 10
        routing = pointers >= 10 ? .contacts(owner: 7) : .gestures
        let flags = input.byte()
        if FuzzBytes.flag(flags, 0) { settings.acceleration = .flat }
        if FuzzBytes.flag(flags, 1) { settings.naturalScroll = false }
        if FuzzBytes.flag(flags, 2) { settings.tapToClick = false }
        if FuzzBytes.flag(flags, 3) { settings.tapAndDrag = false }
        if FuzzBytes.flag(flags, 4) { settings.dragLock = true }
        if FuzzBytes.flag(flags, 5) { settings.leftHanded = true }
        if FuzzBytes.flag(flags, 6) { settings.pinchZoom = false }
        if FuzzBytes.flag(flags, 7) {
            // What the configuration file accepts: any finite number > 0 (zoomStep > 1).
            let speed = input.number { Double($0) / 16 }
            let scrollSpeed = input.number { Double($0) / 16 }
            let dragLockTimeout = input.number { Double($0) * 10 }
            let zoomStep = input.number { 1 + Double($0) / 64 }
            if speed > 0 { settings.speed = speed }
            if scrollSpeed > 0 { settings.scrollSpeed = scrollSpeed }
            if dragLockTimeout > 0 { settings.dragLockTimeout = dragLockTimeout }
            if zoomStep > 1 { settings.zoomStep = zoomStep }
        }
    }

    // MARK: Steps

    private static func step(_ input: inout FuzzBytes, _ clock: inout FuzzClock) -> FuzzStep {
        switch input.byte() & 0x0F {
        case 0: return .input(.down(sample(&input, &clock)))
        case 1, 14, 15: return .input(.move(sample(&input, &clock)))
        case 2: return .input(.up(sample(&input, &clock)))
        case 3:
            let id = input.pointerID()
            return .input(.cancel(id: id, t: clock.next(&input)))
        case 4: return .input(.cancel(id: nil, t: clock.next(&input)))
        case 5:
            let id = input.pointerID()
            return .input(.leave(id: id, t: clock.next(&input)))
        case 6:
            let width = input.number { Double($0) * 8 }
            return .input(.resize(width: width, height: input.number { Double($0) * 8 }))
        case 7: return .input(.clock(t: clock.next(&input)))
        case 8: return .frameEnd
        case 9: return .advance(clock.next(&input))
        case 10: return .advanceToDeadline
        case 11: return .command(command(&input))
        case 12: return .settings(settingsUpdate(&input))
        default: return .releaseAll
        }
    }

    private static func sample(_ input: inout FuzzBytes, _ clock: inout FuzzClock) -> PointerSample {
        let id = input.pointerID()
        let t = clock.next(&input)
        let x = input.number { Double($0) * 4 }
        let y = input.number { Double($0) * 4 }
        let kind = input.byte()
        let types: [PointerType] = [.touch, .mouse, .pen, .touch]
        var sample = PointerSample(id: id, x: x, y: y, t: t, pointerType: types[Int(kind & 3)])
        if FuzzBytes.flag(kind, 2) { sample.buttons = Int(Int8(bitPattern: input.byte())) }
        if FuzzBytes.flag(kind, 3) { sample.pressure = input.number { Double($0) / 256 } }
        return sample
    }

    static let texts = ["a", "Hello, world", "é中😀", "tab\tand\nnewline", String(repeating: "x", count: 1000)]
    static let characters: [Unicode.Scalar] = ["a", "A", " ", "+", "é", "中", "😀"]
    static let modifierOrder: [NamedKey] = [.shift, .control, .alt, .meta, .altGraph]

    private static func command(_ input: inout FuzzBytes) -> ControlCommand {
        switch input.choice(3) {
        case 0:
            return .text(texts[input.choice(texts.count)])
        case 1:
            let k = input.byte()
            let key: HostKey =
                k < 0x80
                ? .named(NamedKey.allCases[Int(k) % NamedKey.allCases.count])
                : .character(characters[Int(k) % characters.count])
            let mask = input.byte()
            var modifiers = modifierOrder.indices.filter { FuzzBytes.flag(mask, $0) }.map { modifierOrder[$0] }
            if FuzzBytes.flag(mask, 7) { modifiers.reverse() }
            if FuzzBytes.flag(mask, 6), let first = modifiers.first { modifiers.append(first) }
            return .key(key, modifiers: modifiers)
        default:
            let b = input.byte()
            return .button(HostButton.allCases[Int(b) % 3], ButtonCommand.allCases[Int(b / 3) % 3])
        }
    }

    private static func settingsUpdate(_ input: inout FuzzBytes) -> SettingsUpdate {
        let present = input.byte()
        let values = input.byte()
        var update = SettingsUpdate()
        if FuzzBytes.flag(present, 0) { update.speed = input.number { Double($0) / 16 } }
        if FuzzBytes.flag(present, 1) { update.acceleration = FuzzBytes.flag(values, 1) ? .flat : .adaptive }
        if FuzzBytes.flag(present, 2) { update.naturalScroll = FuzzBytes.flag(values, 2) }
        if FuzzBytes.flag(present, 3) { update.scrollSpeed = input.number { Double($0) / 16 } }
        if FuzzBytes.flag(present, 4) { update.tapToClick = FuzzBytes.flag(values, 4) }
        if FuzzBytes.flag(present, 5) { update.tapAndDrag = FuzzBytes.flag(values, 5) }
        if FuzzBytes.flag(present, 6) { update.dragLock = FuzzBytes.flag(values, 6) }
        if FuzzBytes.flag(present, 7) { update.leftHanded = FuzzBytes.flag(values, 7) }
        // `values` bit 0 (its `speed` bit carries no value): one more byte, whose bit 0 turns
        // kinetic scrolling on or off.
        if FuzzBytes.flag(values, 0) { update.kineticScrolling = FuzzBytes.flag(input.byte(), 0) }
        return update
    }
}

/// The page clock of a script: a small tag is a step from the previous `t` (mostly forward,
/// sometimes back), an extreme or raw tag an absolute time.
struct FuzzClock {
    var t = 1000.0

    mutating func next(_ input: inout FuzzBytes) -> Double {
        let previous = t
        t = input.number { tag in
            tag < 0xC0 ? previous + Double(tag) : previous + Double(tag - 0xC0) * 100 - 800
        }
        return t
    }
}
