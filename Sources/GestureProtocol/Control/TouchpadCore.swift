import GestureControl
import GestureEngine

/// One touchpad connection's engine and, when the server controls the computer, its control
/// mapper, driven together so every host (the server's `ProtocolSession`, `replay`) feeds them
/// the same way: each input goes through the engine, then the input and the events it produced
/// through the mapper. Pure; time is the page's clock.
struct TouchpadCore: Sendable {
    private(set) var engine: GestureEngine
    private(set) var mapper: ControlMapper?
    /// The mapper's settings when control turned off, for when it turns on again.
    private var parkedSettings: ControlSettings?

    init(engine: GestureEngine, control: ControlSettings?) {
        self.engine = engine
        self.mapper = control.map { ControlMapper(settings: $0, gestures: engine.config) }
    }

    /// The earliest page-clock deadline of the engine or the mapper.
    var nextDeadline: Double? {
        switch (engine.nextDeadline, mapper?.nextDeadline) {
        case (let a?, let b?): min(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    /// Whether the mapper holds a button or key down.
    var isHolding: Bool { mapper?.isHolding ?? false }

    mutating func process(
        _ input: PointerInput, events: inout [GestureEvent], actions: inout [HostAction]
    ) -> EngineResult {
        let start = events.count
        let result = engine.process(input, into: &events)
        if result == .accepted, mapper != nil {
            mapper?.handle(input, events: events[start...], into: &actions)
        }
        return result
    }

    /// Judges a held move step.
    mutating func flush(events: inout [GestureEvent], actions: inout [HostAction]) {
        let start = events.count
        engine.flush(into: &events)
        forward(events, from: start, &actions)
    }

    /// Fires the engine's and the mapper's timers due at or before `t`.
    mutating func advance(to t: Double, events: inout [GestureEvent], actions: inout [HostAction]) {
        let start = events.count
        engine.advance(to: t, into: &events)
        forward(events, from: start, &actions)
        mapper?.advance(to: t, into: &actions)
    }

    /// The connection closed at `t`: the engine cancels the contact, the mapper releases all.
    mutating func close(at t: Double, events: inout [GestureEvent], actions: inout [HostAction]) {
        let start = events.count
        engine.close(at: t, into: &events)
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
            mapper = ControlMapper(settings: parkedSettings ?? settings, gestures: engine.config)
        } else if let current = mapper {
            mapper?.releaseAll(into: &actions)
            parkedSettings = current.settings
            mapper = nil
        }
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
