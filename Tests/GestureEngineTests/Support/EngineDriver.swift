import GestureEngine

/// Test support: drives one engine with a virtual clock and collects its events.
struct EngineDriver {
    var engine: GestureEngine
    var events: [GestureEvent] = []
    /// Index of the first event not yet taken by `take()`.
    private var taken = 0

    init(_ configure: (inout GestureConfig) -> Void = { _ in }, width: Double = 400, height: Double = 800, maxPointers: Int = 10)
    {
        var config = GestureConfig()
        configure(&config)
        engine = GestureEngine(config: config, width: width, height: height, maxPointers: maxPointers)
    }

    @discardableResult
    mutating func send(_ input: PointerInput) -> EngineResult {
        engine.process(input, into: &events)
    }

    @discardableResult
    mutating func down(_ id: Int = 1, _ x: Double, _ y: Double, t: Double, _ type: PointerType = .touch) -> EngineResult {
        send(.down(PointerSample(id: id, x: x, y: y, t: t, pointerType: type)))
    }

    mutating func move(_ id: Int = 1, _ x: Double, _ y: Double, t: Double, _ type: PointerType = .touch) {
        send(.move(PointerSample(id: id, x: x, y: y, t: t, pointerType: type)))
    }

    mutating func up(_ id: Int = 1, _ x: Double, _ y: Double, t: Double, _ type: PointerType = .touch) {
        send(.up(PointerSample(id: id, x: x, y: y, t: t, pointerType: type)))
    }

    mutating func cancel(_ id: Int?, t: Double) { send(.cancel(id: id, t: t)) }

    /// Judges a held step (as a host does at the end of a frame).
    mutating func flush() { engine.flush(into: &events) }

    /// Advances the virtual clock.
    mutating func advance(to t: Double) { engine.advance(to: t, into: &events) }

    /// A tap: down and up at the same place.
    mutating func tap(_ id: Int = 1, _ x: Double, _ y: Double, at t: Double, duration: Double = 50) {
        down(id, x, y, t: t)
        up(id, x, y, t: t + duration)
    }

    /// A straight one-finger move from (x0, y0) to (x1, y1) in `steps` moves over `duration`.
    mutating func stroke(
        _ id: Int = 1, from p0: (Double, Double), to p1: (Double, Double), start t0: Double, duration: Double, steps: Int
    ) {
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            move(id, p0.0 + (p1.0 - p0.0) * f, p0.1 + (p1.1 - p0.1) * f, t: t0 + duration * f)
        }
    }

    /// Events not taken yet, as "gesture.phase" strings; marks them taken.
    mutating func take() -> [String] {
        defer { taken = events.count }
        return events[taken...].map { "\($0.gesture.name).\($0.phase.name)" }
    }

    /// Events not taken yet; marks them taken.
    mutating func takeEvents() -> [GestureEvent] {
        defer { taken = events.count }
        return Array(events[taken...])
    }

    /// All events of one gesture (changed included).
    func all(_ gesture: GestureKind) -> [GestureEvent] {
        events.filter { $0.gesture == gesture }
    }

    /// Names of all events so far, `changed` left out.
    var summary: [String] {
        events.filter { $0.phase != .changed }.map { "\($0.gesture.name).\($0.phase.name)" }
    }
}

extension GestureEvent {
    /// A field by its protocol name, as a Double (integers and numbers).
    func number(_ key: String) -> Double? {
        var found: Double?
        forEachField { name, value in
            guard "\(name)" == key else { return }
            switch value {
            case .number(let d): found = d
            case .integer(let i): found = Double(i)
            case .bool, .name: break
            }
        }
        return found
    }

    /// An enumerated or boolean field by its protocol name, as text.
    func text(_ key: String) -> String? {
        var found: String?
        forEachField { name, value in
            guard "\(name)" == key else { return }
            switch value {
            case .name(let s): found = s
            case .bool(let b): found = b ? "true" : "false"
            case .number, .integer: break
            }
        }
        return found
    }
}
