import GestureControl
import GestureEngine

/// A touchpad connection's engine and mapper driven together exactly as
/// `GestureProtocol.TouchpadCore` drives them (that type is internal to its module; keep
/// the two in step): each input through the engine, then the input and its events through
/// the mapper; timers and flushes forward their events; a close cancels, then releases all.
struct ControlHost {
    var engine: GestureEngine
    var mapper: ControlMapper
    var events: [GestureEvent] = []

    init(engine: GestureEngine, settings: ControlSettings, routing: TouchRouting) {
        self.engine = engine
        self.mapper = ControlMapper(settings: settings, gestures: engine.config, routing: routing)
    }

    var nextDeadline: Double? {
        switch (engine.nextDeadline, mapper.nextDeadline) {
        case (let a?, let b?): min(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    mutating func process(_ input: PointerInput, actions: inout [HostAction]) {
        events.removeAll(keepingCapacity: true)
        if engine.process(input, into: &events) == .accepted {
            mapper.handle(input, events: events[...], into: &actions)
        }
    }

    mutating func flush(actions: inout [HostAction]) {
        events.removeAll(keepingCapacity: true)
        engine.flush(into: &events)
        if !events.isEmpty { mapper.handle(events: events[...], into: &actions) }
    }

    mutating func advance(to t: Double, actions: inout [HostAction]) {
        events.removeAll(keepingCapacity: true)
        engine.advance(to: t, into: &events)
        if !events.isEmpty { mapper.handle(events: events[...], into: &actions) }
        mapper.advance(to: t, into: &actions)
    }

    mutating func close(at t: Double, actions: inout [HostAction]) {
        events.removeAll(keepingCapacity: true)
        engine.close(at: t, into: &events)
        if !events.isEmpty { mapper.handle(events: events[...], into: &actions) }
        mapper.releaseAll(into: &actions)
    }

    mutating func apply(_ update: SettingsUpdate) {
        mapper.settings = update.applied(to: mapper.settings)
    }
}
