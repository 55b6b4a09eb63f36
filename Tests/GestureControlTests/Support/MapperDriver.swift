import GestureControl
import GestureEngine

/// Test support: a real `GestureEngine` (GestureConfig defaults unless configured) feeding a
/// `ControlMapper`, exactly as the server does — for each input `events = engine.process`,
/// then `mapper.handle(input, events:)`, then a flush of the held move step; to advance time,
/// `engine.advance(to:)` → `mapper.handle(events:)` and `mapper.advance(to:)`. A virtual
/// clock: nothing sleeps.
struct MapperDriver {
    var engine: GestureEngine
    var mapper: ControlMapper
    var events: [GestureEvent] = []
    /// Every action so far.
    var actions: [HostAction] = []
    /// Index of the first action not yet taken by `take()`.
    private var taken = 0

    init(
        settings configureSettings: (inout ControlSettings) -> Void = { _ in },
        gestures configureGestures: (inout GestureConfig) -> Void = { _ in },
        width: Double = 400, height: Double = 800, routing: TouchRouting = .gestures
    ) {
        var settings = ControlSettings()
        configureSettings(&settings)
        var gestures = GestureConfig()
        configureGestures(&gestures)
        engine = GestureEngine(config: gestures, width: width, height: height)
        mapper = ControlMapper(settings: settings, gestures: gestures, routing: routing)
    }

    /// One input through the engine and the mapper, then a flush of the held step.
    mutating func send(_ input: PointerInput) {
        let start = events.count
        guard engine.process(input, into: &events) == .accepted else { return }
        mapper.handle(input, events: events[start...], into: &actions)
        let flushed = events.count
        engine.flush(into: &events)
        if events.count > flushed { mapper.handle(events: events[flushed...], into: &actions) }
    }

    /// A batch frame: the inputs go through the engine and the mapper one by one, and the held
    /// step is flushed once at the end (the server flushes at the end of each batch frame, so
    /// the moves of several fingers with one `t` are judged together).
    mutating func frame(_ inputs: [PointerInput]) {
        for input in inputs {
            let start = events.count
            guard engine.process(input, into: &events) == .accepted else { continue }
            mapper.handle(input, events: events[start...], into: &actions)
        }
        let flushed = events.count
        engine.flush(into: &events)
        if events.count > flushed { mapper.handle(events: events[flushed...], into: &actions) }
    }

    /// One frame moving touch fingers `ids` to `points` at `t`.
    mutating func moveFingers(_ moves: [(id: Int, x: Double, y: Double)], t: Double) {
        frame(moves.map { .move(PointerSample(id: $0.id, x: $0.x, y: $0.y, t: t)) })
    }

    mutating func down(
        _ id: Int = 1, _ x: Double, _ y: Double, t: Double, _ type: PointerType = .touch, buttons: Int? = nil
    ) {
        send(.down(PointerSample(id: id, x: x, y: y, t: t, pointerType: type, buttons: buttons)))
    }

    mutating func move(
        _ id: Int = 1, _ x: Double, _ y: Double, t: Double, _ type: PointerType = .touch, buttons: Int? = nil
    ) {
        send(.move(PointerSample(id: id, x: x, y: y, t: t, pointerType: type, buttons: buttons)))
    }

    mutating func up(_ id: Int = 1, _ x: Double, _ y: Double, t: Double, _ type: PointerType = .touch, buttons: Int? = nil) {
        send(.up(PointerSample(id: id, x: x, y: y, t: t, pointerType: type, buttons: buttons)))
    }

    mutating func cancel(_ id: Int?, t: Double) { send(.cancel(id: id, t: t)) }

    /// Advances the virtual clock: engine timers, then the mapper's.
    mutating func advance(to t: Double) {
        let start = events.count
        engine.advance(to: t, into: &events)
        mapper.handle(events: events[start...], into: &actions)
        mapper.advance(to: t, into: &actions)
    }

    mutating func command(_ command: ControlCommand) {
        mapper.handle(command, into: &actions)
    }

    mutating func releaseAll() {
        mapper.releaseAll(into: &actions)
    }

    /// A tap: down and up at the same place.
    mutating func tap(_ id: Int = 1, _ x: Double, _ y: Double, at t: Double, duration: Double = 50) {
        down(id, x, y, t: t)
        up(id, x, y, t: t + duration)
    }

    /// A tap of several fingers (ids 1, 2, …, 10 px apart), all down then all up.
    mutating func tap(fingers: Int, at t: Double, duration: Double = 50) {
        for i in 1...fingers { down(i, 100 + 10 * Double(i), 300, t: t + Double(i - 1)) }
        for i in 1...fingers { up(i, 100 + 10 * Double(i), 300, t: t + duration + Double(i - 1)) }
    }

    /// A straight move of one pointer from p0 to p1 in `steps` moves over `duration`.
    mutating func stroke(
        _ id: Int = 1, from p0: (Double, Double), to p1: (Double, Double), start t0: Double, duration: Double, steps: Int,
        _ type: PointerType = .touch, buttons: Int? = nil
    ) {
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            move(id, p0.0 + (p1.0 - p0.0) * f, p0.1 + (p1.1 - p0.1) * f, t: t0 + duration * f, type, buttons: buttons)
        }
    }

    /// Actions not taken yet; marks them taken.
    mutating func take() -> [HostAction] {
        defer { taken = actions.count }
        return Array(actions[taken...])
    }

    /// Actions not taken yet, motion and wheel left out; marks them taken.
    mutating func takePresses() -> [HostAction] {
        take().filter(\.isPress)
    }
}
