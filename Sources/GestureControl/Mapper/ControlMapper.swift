import GestureEngine

/// The control mapping of one touchpad connection: pointer input and the engine's gesture
/// events in, `HostAction`s out (CONTROL.md "Default mapping of a touchpad connection's
/// input"). Pure and deterministic: no I/O, no clock. Time arrives with the input (page clock
/// ms); the mapper's own timers (a tap's held click, a drag lock, the wheel steps of a
/// coast) are reported by `nextDeadline` and fired by `advance(to:into:)` or by the next
/// input.
///
/// The rules, constants and their reasons are listed in docs/control-mapping.md. In
/// short:
/// - Pointer motion comes from raw moves (one touch finger, or a mouse / pen), never from
///   gesture events, so it starts with the first move and is never late.
/// - Clicks, drags, wheel, zoom and swipe keys come from the engine's events of contacts that
///   began with a touch; events of a contact begun by a mouse or pen are ignored.
/// - Every press and release goes through one record of held buttons and keys
///   (`HeldInputs`): nothing is pressed twice, nothing released that is not held, and
///   `releaseAll` lets go of everything.
/// - What is held, and until when, is read cheaply: `heldVersion` changes with it, and
///   `writeHeld(into:)` writes it (`ControlMapper+Held`) — the page's `held` message.
/// - A two-finger scroll lifted fast coasts (kinetic scrolling, `ControlMapper+Coast`) until
///   it comes to rest or the next `down`, command, cancel or `releaseAll` stops it.
/// - With `routing` `.contacts` (the `touchpad` backend) touches pass through as
///   `TouchContact`s instead (`ControlMapper+Contacts`): no motion, clicks, wheel, zoom or
///   swipe keys come from them; a mouse or pen, the keyboard and the button bar are mapped as
///   always.
///
/// Within `handle(_:events:into:)` the order is: the mapper's timers due at or before the
/// input's `t`, then the events in order (they describe what happened up to and including the
/// input), then the raw input itself (motion, fingers and buttons going down and up).
///
/// Hot path: `handle` appends into the caller's array and allocates nothing; its tables are
/// small, fixed, reserved at `init`.
public struct ControlMapper: Sendable {
    /// The settings in force; may be replaced at any time (the page's settings sheet). A
    /// button already held is released as it was pressed, whatever the new settings say.
    public var settings: ControlSettings
    /// The engine thresholds the mapping follows (`slop` for drags, `multiTapInterval` for
    /// a tap's held click).
    let gestures: GestureConfig
    /// Whether touches are mapped or passed through as contacts.
    public let routing: TouchRouting
    /// The page clock of the latest touch passed through (a lift without a `t` of its own,
    /// `releaseAll`, is stamped with it).
    var lastContactTime = 0.0

    var held = HeldInputs() {
        didSet { heldVersion &+= 1 }
    }
    var touches = TouchPointers()
    var touchMotion = MotionAccumulator()
    var devices = DevicePointers()
    var touchButton = TouchButton.idle {
        didSet { heldVersion &+= 1 }
    }
    /// Changes whenever what is held, or its `until`, may have changed: every press and
    /// release (`held`) and every state of the touch gestures' button (`touchButton`), so
    /// equal values mean nothing changed (`ControlMapper+Held`). Stored, so that a host reads
    /// it for the price of a load.
    public private(set) var heldVersion: UInt64 = 0
    var zoom = ZoomStepper()
    /// A scroll began and has not ended (its end sends `wheelStop`; a coast keeps it open).
    var scrolling = false
    /// The scroll coasting after its lift, if any (kinetic scrolling).
    var coast: ScrollCoast? = nil
    var contact = ContactKind.none
    /// The clicks of a tap sequence held back for a claim that may still take them.
    var heldTaps: HeldTaps? = nil
    /// This connection showed the spotlight (`ControlCommand.spotlight`) and has not hidden it.
    var spotlightShown = false

    /// Who began the current (or last) contact: gesture events are mapped only for touch.
    enum ContactKind: Sendable {
        case none
        case touch
        /// A mouse or pen pointer went down first: its taps, drags… are not touch gestures.
        case device
        /// Cancelled or released by `releaseAll`: its remaining events are ignored.
        case ignored
    }

    /// Which input the events being mapped came with, for the few rules that depend on it.
    enum EventContext {
        /// Events without input (engine timers, a flushed step).
        case none
        /// The `up` of pointer `id`.
        case up(id: Int)
        /// Any other input.
        case other
    }

    /// A mapper for one connection, nothing held.
    public init(settings: ControlSettings, gestures: GestureConfig, routing: TouchRouting = .gestures) {
        self.settings = settings
        self.gestures = gestures
        self.routing = routing
    }

    /// An accepted pointer input (page clock `t`), with the engine events produced while
    /// processing it (events of timers that fired before it and of a flushed move step come
    /// first, in order). First fires the mapper's own timers due at or before the input's t
    /// (if it has one).
    public mutating func handle(_ input: PointerInput, events: ArraySlice<GestureEvent>, into actions: inout [HostAction]) {
        if let t = input.time { advance(to: t, into: &actions) }
        if case .down = input { stopCoast(into: &actions) }
        var context = EventContext.other
        if case .up(let s) = input { context = .up(id: s.id) }
        for event in events { map(event, context: context, into: &actions) }
        let owner = contactOwner
        switch input {
        case .down(let s) where s.pointerType == .touch:
            if let owner { contactDown(s, owner: owner, into: &actions) } else { touchDown(s, into: &actions) }
        case .down(let s):
            deviceDown(s, into: &actions)
        case .move(let s) where isTouch(s):
            if let owner { contactMove(s, owner: owner, into: &actions) } else { touchMove(s, into: &actions) }
        case .move(let s):
            deviceMove(s, into: &actions)
        case .up(let s) where isTouch(s):
            if let owner { contactUp(s, owner: owner, into: &actions) } else { touchUp(s, into: &actions) }
        case .up(let s):
            deviceUp(s, into: &actions)
        case .cancel(let id, let t):
            lastContactTime = max(lastContactTime, t)
            cancel(id: id, into: &actions)
        case .leave(let id, _):
            deviceLeave(id: id)
        case .resize(let width, let height):
            announceSurface(width: width, height: height, into: &actions)
        case .clock:
            break
        }
    }

    /// Engine events produced without an input (engine timers fired, a move step flushed by
    /// the host).
    public mutating func handle(events: ArraySlice<GestureEvent>, into actions: inout [HostAction]) {
        for event in events { map(event, context: .none, into: &actions) }
    }

    /// The mapper's own earliest deadline (page clock ms), if any: a tap's held click, a
    /// drag lock, a coast's next wheel step, or the end of a tap sequence whose clicks are held
    /// back for a claim.
    public var nextDeadline: Double? {
        Self.earlier(Self.earlier(touchButton.deadline, coast?.nextDeadline), heldTaps?.pendingDeadline)
    }

    /// Fires the mapper's timers due at or before `t` (page clock): the held button goes up;
    /// a coast wheels on (or comes to rest); a tap sequence whose clicks wait is decided.
    public mutating func advance(to t: Double, into actions: inout [HostAction]) {
        if let deadline = touchButton.deadline, deadline <= t { releaseTouchButton(into: &actions) }
        advanceCoast(to: t, into: &actions)
        advanceHeldTaps(to: t, into: &actions)
    }

    private static func earlier(_ a: Double?, _ b: Double?) -> Double? {
        switch (a, b) {
        case (let a?, let b?): min(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    /// Releases everything this connection holds (buttons, keys, modifiers; last pressed
    /// first) and resets gesture state: used on connection close, silence and server stop.
    /// Clicks held back for a claim are dropped: nothing clicks after the phone went away.
    /// A scroll in progress (or coasting) is closed with `wheelStop`. Fingers and mouse
    /// buttons still down are ignored until their `up`, and the rest of the current contact's
    /// events too.
    public mutating func releaseAll(into actions: inout [HostAction]) {
        liftContacts(into: &actions)
        held.releaseEverything(into: &actions)
        if spotlightShown { actions.append(.spotlight(false)) }
        spotlightShown = false
        if scrolling { actions.append(.wheelStop) }
        scrolling = false
        coast = nil
        touchButton = .idle
        heldTaps = nil
        zoom.reset()
        touches.ignoreAll()
        touchMotion.reset()
        for slot in devices.slots.indices {
            if devices[slot].isDown { devices[slot].buttonsIgnored = true }
            devices[slot].held = []
            devices[slot].motion.reset()
        }
        contact = .ignored
    }

    /// True while any button or key is held down by this connection, or a finger of it
    /// touches a native touchpad.
    public var isHolding: Bool { !held.isEmpty || (contactOwner != nil && touches.count > 0) }

    /// `move` and `up` go to the table that knows the pointer, else by its type.
    private func isTouch(_ s: PointerSample) -> Bool {
        if touches.index(of: s.id) != nil || touches.isIgnored(s.id) { return true }
        if devices.slot(of: s.id) != nil { return false }
        return s.pointerType == .touch
    }

    /// Whether a `down` now starts a new contact (no pointer of a live contact is down).
    var startsContact: Bool {
        touches.count == 0 && !devices.anyContactDown
    }

    /// `cancel` of one pointer of the contact, or `"all"`: everything held by touch and device
    /// gestures goes up at once, drags end, and the contact's pointers are ignored until their
    /// `up`. A cancel of a hovering mouse / pen only resets its motion reference.
    mutating func cancel(id: Int?, into actions: inout [HostAction]) {
        if let id, touches.index(of: id) == nil {
            guard let slot = devices.slot(of: id) else { return }
            guard devices[slot].isDown, !devices[slot].buttonsIgnored else {
                devices[slot].motion.clearReference()
                return
            }
        }
        liftContacts(into: &actions)
        stopCoast(into: &actions)
        // A sequence still waiting for this contact is decided (its `end` usually did it).
        if let taps = heldTaps, taps.wait != .deadline { decideHeldTaps(taps, into: &actions) }
        held.release(ownedBy: [.touch, .zoom, .allDevices], into: &actions)
        touchButton = .idle
        zoom.reset()
        scrolling = false
        touches.ignoreAll()
        touchMotion.clearReference()
        for slot in devices.slots.indices where devices[slot].inUse {
            if devices[slot].isDown { devices[slot].buttonsIgnored = true }
            devices[slot].held = []
            if devices[slot].isDown || id == nil { devices[slot].motion.clearReference() }
        }
        contact = .ignored
    }
}
