import GestureControl
import GestureEngine

/// One touchpad connection's engine and, when the server controls the computer, its control
/// mapper, driven together so every host (the server's `ProtocolSession`, `replay`) feeds them
/// the same way: each input goes through the engine, then the input and the events it produced
/// through the mapper. Pure; time is the page's clock.
///
/// The engine is made at the first input other than a `ping` (or when a mapper needs its
/// configuration): an idle touchpad holds no engine buffers. Until then the pings' clock is
/// kept as the engine would keep it, and handed to it when it is made.
struct TouchpadCore: Sendable {
    /// The engine's parameters, for when it is made.
    private struct EngineSetup: Sendable {
        var config: GestureConfig
        var width: Double
        var height: Double
        var maxPointers: Int
        var maxTicksPerAdvance: Int
        /// Mapped touches, or contacts passed through (the `touchpad` backend).
        var routing: TouchRouting
    }

    private(set) var engine: GestureEngine?
    private(set) var mapper: ControlMapper?
    /// The mapper's settings when control turned off, for when it turns on again.
    private var parkedSettings: ControlSettings?
    private let setup: EngineSetup
    /// The clock of the engine not made yet: the pings' page time, clamped and never going
    /// back, as `GestureEngine.process(.clock)` keeps it.
    private var pendingNow: Double?

    /// With `control`, the mapper is made at once; `start(actions:)` then tells a native
    /// touchpad the surface.
    init(
        config: GestureConfig, width: Double, height: Double, maxPointers: Int, control: ControlSettings?,
        routing: TouchRouting = .gestures, maxTicksPerAdvance: Int = GestureEngine.defaultMaxTicksPerAdvance
    ) {
        setup = EngineSetup(
            config: config, width: width, height: height, maxPointers: maxPointers,
            maxTicksPerAdvance: max(maxTicksPerAdvance, 1), routing: routing)
        if let control {
            let engine = makeEngine()
            self.engine = engine
            mapper = ControlMapper(settings: control, gestures: engine.config, routing: routing)
        }
    }

    /// The connection said `hello`: a mapper passing touches through announces the surface
    /// (the `touchpad` backend makes its device for it before the first touch).
    func start(actions: inout [HostAction]) {
        mapper?.announceSurface(width: setup.width, height: setup.height, into: &actions)
    }

    /// The engine's clock (its latest `t`), made or not.
    var now: Double? { engine.map { $0.now } ?? pendingNow }
    /// Whether a move step waits to be judged.
    var hasPendingStep: Bool { engine?.hasPendingStep ?? false }
    /// How many pointers are down.
    var pointersDown: Int { engine?.pointersDown ?? 0 }

    /// The earliest page-clock deadline of the engine or the mapper.
    var nextDeadline: Double? {
        switch (engine?.nextDeadline, mapper?.nextDeadline) {
        case (let a?, let b?): min(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    /// Whether the mapper holds a button or key down.
    var isHolding: Bool { mapper?.isHolding ?? false }

    /// Writes what the mapper holds into `snapshot` (nothing without a mapper).
    func writeHeld(into snapshot: inout HeldSnapshot) {
        if let mapper { mapper.writeHeld(into: &snapshot) } else { snapshot.removeAll() }
    }

    mutating func process(
        _ input: PointerInput, events: inout [GestureEvent], actions: inout [HostAction]
    ) -> EngineResult {
        let start = events.count
        let result: EngineResult
        if engine == nil, case .clock(let t) = input {
            // What the engine would do: no timers, no contact; only its clock moves.
            let bounded = t.isNaN ? (pendingNow ?? 0) : min(max(t, -GestureEngine.timeLimit), GestureEngine.timeLimit)
            pendingNow = max(pendingNow ?? bounded, bounded)
            result = .accepted
        } else {
            if engine == nil { engine = makeEngine() }
            result = engine?.process(input, into: &events) ?? .accepted
        }
        if result == .accepted, mapper != nil {
            mapper?.handle(input, events: events[start...], into: &actions)
        }
        return result
    }

    /// A new engine, its clock where the pings so far put it.
    private func makeEngine() -> GestureEngine {
        var engine = GestureEngine(
            config: setup.config, width: setup.width, height: setup.height, maxPointers: setup.maxPointers)
        engine.maxTicksPerAdvance = setup.maxTicksPerAdvance
        if let pendingNow {
            var none: [GestureEvent] = []
            _ = engine.process(.clock(t: pendingNow), into: &none)
        }
        return engine
    }

    /// Judges a held move step.
    mutating func flush(events: inout [GestureEvent], actions: inout [HostAction]) {
        let start = events.count
        engine?.flush(into: &events)
        forward(events, from: start, &actions)
    }

    /// Fires the engine's and the mapper's timers due at or before `t`.
    mutating func advance(to t: Double, events: inout [GestureEvent], actions: inout [HostAction]) {
        let start = events.count
        engine?.advance(to: t, into: &events)
        forward(events, from: start, &actions)
        mapper?.advance(to: t, into: &actions)
    }

    /// The connection closed at `t`: the engine cancels the contact, the mapper releases all.
    mutating func close(at t: Double, events: inout [GestureEvent], actions: inout [HostAction]) {
        let start = events.count
        engine?.close(at: t, into: &events)
        forward(events, from: start, &actions)
        mapper?.releaseAll(into: &actions)
    }

    /// A keyboard / button command (only with a mapper).
    mutating func command(_ command: ControlCommand, actions: inout [HostAction]) {
        mapper?.handle(command, into: &actions)
    }

    /// Applies a page's settings to the mapper; returns the settings now in force (nil
    /// without a mapper).
    mutating func apply(_ update: SettingsUpdate) -> ControlSettings? {
        guard let settings = mapper?.settings else { return nil }
        let updated = update.applied(to: settings)
        mapper?.settings = updated
        return updated
    }

    /// Turns control on (a new mapper, with the settings the connection had when control
    /// turned off, else `settings`) or off (nil: the mapper releases what it holds and goes).
    mutating func setControl(_ settings: ControlSettings?, actions: inout [HostAction]) {
        if let settings {
            guard mapper == nil else { return }
            let engine = self.engine ?? makeEngine()
            self.engine = engine
            mapper = ControlMapper(settings: parkedSettings ?? settings, gestures: engine.config, routing: setup.routing)
            mapper?.announceSurface(width: engine.width, height: engine.height, into: &actions)
        } else if let current = mapper {
            mapper?.releaseAll(into: &actions)
            parkedSettings = current.settings
            mapper = nil
        }
    }

    /// The gestures hooks claim, from now on (also for when control turns on again).
    mutating func setClaims(_ claims: GestureClaims) {
        mapper?.settings.claims = claims
        parkedSettings?.claims = claims
    }

    /// Releases whatever the mapper holds (the connection went silent).
    mutating func releaseAll(actions: inout [HostAction]) {
        mapper?.releaseAll(into: &actions)
    }

    private mutating func forward(_ events: [GestureEvent], from start: Int, _ actions: inout [HostAction]) {
        guard mapper != nil, start < events.count else { return }
        mapper?.handle(events: events[start...], into: &actions)
    }
}
