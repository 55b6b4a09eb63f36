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
///   began with a touch; events of a contact begun by a mouse or pen are ignored. A mouse or
///   pen moves the pointer and presses its own buttons (`DeviceInput`); taps a hook may claim
///   hold their clicks back (`TapClaimHold`).
/// - Every press and release goes through one record of held buttons and keys
///   (`HeldInputs`): nothing is pressed twice, nothing released that is not held, and
///   `releaseAll` lets go of everything.
/// - What is held, and until when, is read cheaply: `heldVersion` changes with it, and
///   `writeHeld(into:)` writes it — the page's `held` message.
/// - A two-finger scroll lifted fast coasts (kinetic scrolling, `WheelScroll`) until
///   it comes to rest or the next `down`, command, cancel or `releaseAll` stops it.
/// - With `routing` `.contacts` (the `touchpad` backend) touches pass through as
///   `TouchContact`s instead: no motion, clicks, wheel, zoom or
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
    private let gestures: GestureConfig
    /// Whether touches are mapped or passed through as contacts.
    public let routing: TouchRouting
    /// The page clock of the latest touch passed through (a lift without a `t` of its own,
    /// `releaseAll`, is stamped with it).
    private var lastContactTime = 0.0

    /// Every button and key this connection holds, and who holds it.
    private var held = HeldInputs()
    /// The touch fingers down (and those ignored after a cancel until they lift).
    private var touches = TouchPointers()
    private var touchMotion = MotionAccumulator()
    private var devices = DeviceInput()
    private var touchButton = TouchButton.idle {
        didSet { touchButtonChanges &+= 1 }
    }
    private var touchButtonChanges: UInt64 = 0
    private var zoom = ZoomStepper()
    /// Two-finger scrolls as the wheel, and their coast (kinetic scrolling).
    private var wheel = WheelScroll()
    private var contact = ContactKind.none
    /// The clicks of a tap sequence held back for a claim that may still take them.
    private var claimHold: TapClaimHold
    /// This connection showed the spotlight (`ControlCommand.spotlight`) and has not hidden it.
    private var spotlightShown = false

    /// Changes whenever what is held, or its `until`, may have changed: every press and
    /// release (`HeldInputs.version`) and every state of the touch gestures' button
    /// (`touchButton`), so equal values mean nothing changed (`writeHeld(into:)`). Two loads
    /// and an add: a host reads it after every input.
    public var heldVersion: UInt64 { held.version &+ touchButtonChanges }

    /// Who began the current (or last) contact: gesture events are mapped only for touch.
    private enum ContactKind: Sendable {
        case none
        case touch
        /// A mouse or pen pointer went down first: its taps, drags… are not touch gestures.
        case device
        /// Cancelled or released by `releaseAll`: its remaining events are ignored.
        case ignored
    }

    /// Which input the events being mapped came with, for the few rules that depend on it.
    private enum EventContext {
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
        claimHold = TapClaimHold(gestures: gestures)
    }

    /// An accepted pointer input (page clock `t`), with the engine events produced while
    /// processing it (events of timers that fired before it and of a flushed move step come
    /// first, in order). First fires the mapper's own timers due at or before the input's t
    /// (if it has one).
    public mutating func handle(_ input: PointerInput, events: ArraySlice<GestureEvent>, into actions: inout [HostAction]) {
        if let t = input.time { advance(to: t, into: &actions) }
        if case .down = input { wheel.stopCoast(into: &actions) }
        var context = EventContext.other
        if case .up(let s) = input { context = .up(id: s.id) }
        for event in events { map(event, context: context, into: &actions) }
        let owner = contactOwner
        switch input {
        case .down(let s) where s.pointerType == .touch:
            if let owner { contactDown(s, owner: owner, into: &actions) } else { touchDown(s, into: &actions) }
        case .down(let s):
            let starts = startsContact
            if devices.down(s, settings: settings, held: &held, into: &actions), starts { contact = .device }
        case .move(let s) where isTouch(s):
            if let owner { contactMove(s, owner: owner, into: &actions) } else { touchMove(s, into: &actions) }
        case .move(let s):
            devices.move(s, settings: settings, held: &held, into: &actions)
        case .up(let s) where isTouch(s):
            if let owner { contactUp(s, owner: owner, into: &actions) } else { touchUp(s, into: &actions) }
        case .up(let s):
            devices.up(s, held: &held, into: &actions)
        case .cancel(let id, let t):
            lastContactTime = max(lastContactTime, t)
            cancel(id: id, into: &actions)
        case .leave(let id, _):
            devices.leave(id: id)
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
        Self.earlier(Self.earlier(touchButton.deadline, wheel.nextDeadline), claimHold.deadline)
    }

    /// Fires the mapper's timers due at or before `t` (page clock): the held button goes up;
    /// a coast wheels on (or comes to rest); a tap sequence whose clicks wait is decided.
    public mutating func advance(to t: Double, into actions: inout [HostAction]) {
        if let deadline = touchButton.deadline, deadline <= t { releaseTouchButton(into: &actions) }
        wheel.advance(to: t, settings: settings, into: &actions)
        claimHold.advance(to: t, claims: settings.claims, held: &held, into: &actions)
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
        wheel.close(into: &actions)
        touchButton = .idle
        claimHold.drop()
        zoom.reset()
        touches.ignoreAll()
        touchMotion.reset()
        devices.releaseAll()
        contact = .ignored
    }

    /// True while any button or key is held down by this connection, or a finger of it
    /// touches a native touchpad.
    public var isHolding: Bool { !held.isEmpty || (contactOwner != nil && touches.count > 0) }

    /// `move` and `up` go to the table that knows the pointer, else by its type.
    private func isTouch(_ s: PointerSample) -> Bool {
        if touches.index(of: s.id) != nil || touches.isIgnored(s.id) { return true }
        if devices.knows(s.id) { return false }
        return s.pointerType == .touch
    }

    /// Whether a `down` now starts a new contact (no pointer of a live contact is down).
    private var startsContact: Bool {
        touches.count == 0 && !devices.anyContactDown
    }

    /// `cancel` of one pointer of the contact, or `"all"`: everything held by touch and device
    /// gestures goes up at once, drags end, and the contact's pointers are ignored until their
    /// `up`. A cancel of a hovering mouse / pen only resets its motion reference.
    private mutating func cancel(id: Int?, into actions: inout [HostAction]) {
        if let id, touches.index(of: id) == nil {
            guard devices.cancelsContact(id: id) else { return }
        }
        liftContacts(into: &actions)
        wheel.stopCoast(into: &actions)
        claimHold.contactCancelled(claims: settings.claims, held: &held, into: &actions)
        held.release(ownedBy: [.touch, .zoom, .allDevices], into: &actions)
        touchButton = .idle
        zoom.reset()
        wheel.forget()
        touches.ignoreAll()
        touchMotion.clearReference()
        devices.contactCancelled(all: id == nil)
        contact = .ignored
    }

    /// Whether a scroll coasts (kinetic scrolling).
    public var isCoasting: Bool { wheel.isCoasting }

    // MARK: - What is held (the page's `held`)

    // What the connection holds on the computer, for its page (the `held` message,
    // docs/protocol.md): read cheaply, without allocating on the hot path. A reader keeps the
    // `heldVersion` it last saw and writes a snapshot only when it changed (a change may still
    // leave the snapshot as it was: a click is a press and a release).

    /// Writes what is held into `snapshot` (its storage reused): every button and key this
    /// connection holds, whoever holds it, and `until` when the touch gestures' button goes
    /// up by itself at a deadline (a tap's wait for a drag, a drag lock) and nothing else
    /// holds that button. With `routing` `.contacts` (the `touchpad` backend) the fingers on
    /// the native touchpad are not listed: the desktop holds its buttons itself.
    public func writeHeld(into snapshot: inout HeldSnapshot) {
        snapshot.removeAll()
        held.write(into: &snapshot)
        switch touchButton {
        case .tapHeld(let button, let deadline), .locked(let button, let deadline):
            if held.owners(of: .button(button)) == .touch { snapshot.until = deadline }
        case .idle, .dragging:
            break
        }
    }

    // MARK: - Keyboard and button-bar commands

    // Keyboard and button-bar commands from the page (CONTROL.md "Page → server: keyboard and
    // buttons").

    /// A keyboard / button-bar command (already validated).
    /// - `text`: typed as is.
    /// - `key`: modifiers down in the given order, the key down and up, modifiers up in
    ///   reverse. A modifier or key already held (Control during a pinch) is not pressed
    ///   again, nor released by the command.
    /// - `button` `click`: down and up — nothing when the button is already held (it is down;
    ///   a click would cut someone's drag); `down`: pressed unless already held; `up`:
    ///   released whoever holds it (the page's button bar can always let go), nothing when
    ///   not held. Buttons held by commands are released by `releaseAll`, not by a cancel.
    /// - `spotlight`: shown or hidden once (again is nothing); `releaseAll` hides it.
    ///
    /// Any command stops a coast first (kinetic scrolling).
    public mutating func handle(_ command: ControlCommand, into actions: inout [HostAction]) {
        wheel.stopCoast(into: &actions)
        switch command {
        case .text(let text):
            actions.append(.text(text))
        case .key(let key, let modifiers):
            pressCombination(modifiers: modifiers, key: key, by: .command, into: &actions)
        case .button(let button, .click):
            guard !held.isHeld(.button(button)) else { return }
            held.press(.button(button), by: .command, into: &actions)
            held.release(.button(button), by: .command, into: &actions)
        case .button(let button, .down):
            guard !held.isHeld(.button(button)) else { return }
            held.press(.button(button), by: .command, into: &actions)
        case .button(let button, .up):
            held.forceRelease(.button(button), into: &actions)
        case .spotlight(let on):
            guard on != spotlightShown else { return }
            spotlightShown = on
            actions.append(.spotlight(on))
        }
    }

    /// Modifiers down in order, the key down and up, modifiers up in reverse, all through
    /// the record of held keys.
    private mutating func pressCombination(
        modifiers: [NamedKey], key: HostKey, by owner: HeldInputs.Owners, into actions: inout [HostAction]
    ) {
        for modifier in modifiers { held.press(.key(.named(modifier)), by: owner, into: &actions) }
        held.press(.key(key), by: owner, into: &actions)
        held.release(.key(key), by: owner, into: &actions)
        for modifier in modifiers.reversed() { held.release(.key(.named(modifier)), by: owner, into: &actions) }
    }

    // MARK: - Touches passed through to a native touchpad

    // Touches passed through to a native touchpad (`routing` `.contacts`, CONTROL.md "The
    // `touchpad` backend"): every touch pointer is a `TouchContact` from `down` to `up` or
    // `cancel`; nothing else comes from it. The finger table (`touches`) is the one the mapping
    // uses, so a cancelled contact's fingers are ignored until their `up` in both modes.

    /// The connection whose contacts this mapper passes through, nil when touches are mapped.
    private var contactOwner: Int? {
        switch routing {
        case .gestures: nil
        case .contacts(let owner): owner
        }
    }

    /// Tells a native touchpad the connection's surface (its `hello`, a `resize`). Nothing
    /// when touches are mapped.
    public func announceSurface(width: Double, height: Double, into actions: inout [HostAction]) {
        guard let owner = contactOwner else { return }
        actions.append(.touchSurface(owner: owner, width: width, height: height))
    }

    private mutating func contactDown(_ s: PointerSample, owner: Int, into actions: inout [HostAction]) {
        if startsContact { contact = .touch }
        guard touches.add(id: s.id, x: s.x, y: s.y) else { return }  // already down: ignored
        pass(.down, s, owner: owner, into: &actions)
    }

    private mutating func contactMove(_ s: PointerSample, owner: Int, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else { return }  // not down, or ignored after a cancel
        touches.move(at: i, x: s.x, y: s.y)
        pass(.move, s, owner: owner, into: &actions)
    }

    private mutating func contactUp(_ s: PointerSample, owner: Int, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else {
            touches.unignore(s.id)
            return
        }
        touches.remove(at: i)
        pass(.up, s, owner: owner, into: &actions)
    }

    /// Every finger down is lifted at once (`cancel`, at the latest touch's time); the caller
    /// then ignores them until their `up`. Nothing when touches are mapped.
    private func liftContacts(into actions: inout [HostAction]) {
        guard let owner = contactOwner else { return }
        for finger in touches.fingers {
            actions.append(
                .contact(
                    TouchContact(
                        owner: owner, id: finger.id, phase: .cancel, x: finger.x, y: finger.y, t: lastContactTime)))
        }
    }

    private mutating func pass(
        _ phase: TouchContact.Phase, _ s: PointerSample, owner: Int, into actions: inout [HostAction]
    ) {
        lastContactTime = max(lastContactTime, s.t)
        actions.append(.contact(TouchContact(owner: owner, id: s.id, phase: phase, x: s.x, y: s.y, t: s.t)))
    }

    // MARK: - Touch fingers: motion and the touch button

    // Raw touch input: the fingers down, one-finger pointer motion, and the fingers' part in the
    // touch button (tap-and-drag, drag lock).

    /// A finger goes down. The first finger of a touch contact takes over a button held by a
    /// tap (tap-and-drag) or a drag lock; a second finger while dragging releases the button
    /// first (the engine ends the drag there too). The motion reference moves to the single
    /// finger, or is cleared with two and more.
    private mutating func touchDown(_ s: PointerSample, into actions: inout [HostAction]) {
        let first = touches.count == 0
        if startsContact { contact = .touch }
        guard touches.add(id: s.id, x: s.x, y: s.y) else { return }  // already down: ignored
        if first { claimHold.contactStarted(at: s.t) }
        switch touchButton {
        case .tapHeld(let button, _) where first:
            touchButton = .dragging(
                TouchDrag(origin: .tapDrag, button: button, finger: s.id, startX: s.x, startY: s.y, dragged: false))
        case .locked(let button, _) where first:
            touchButton = .dragging(
                TouchDrag(origin: .lockResumed, button: button, finger: s.id, startX: s.x, startY: s.y, dragged: false))
        case .dragging where !first:
            releaseTouchButton(into: &actions)
        case .idle, .tapHeld, .locked, .dragging:
            break
        }
        touchCountChanged(at: s.t)
    }

    /// A finger moves: with exactly one finger down, the pointer follows it.
    private mutating func touchMove(_ s: PointerSample, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else { return }  // not down, or ignored after a cancel
        touches.move(at: i, x: s.x, y: s.y)
        if touches.count == 1 {
            touchMotion.move(x: s.x, y: s.y, t: s.t, settings: settings, into: &actions)
        }
        trackDrag(finger: s.id, x: s.x, y: s.y)
    }

    /// A finger lifts. The dragging finger ends its drag (drag lock, or release), unless an
    /// event of this `up` already did. The `up` of an ignored finger ends its ignoring.
    private mutating func touchUp(_ s: PointerSample, into actions: inout [HostAction]) {
        guard let i = touches.index(of: s.id) else {
            touches.unignore(s.id)
            return
        }
        touches.move(at: i, x: s.x, y: s.y)
        trackDrag(finger: s.id, x: s.x, y: s.y)
        if case .dragging(let drag) = touchButton, drag.finger == s.id {
            finishDrag(drag, lifted: true, at: s.t, into: &actions)
        }
        touches.remove(at: i)
        touchCountChanged(at: s.t)
    }

    /// The count of fingers changed: the reference moves to the single finger left (no jump
    /// when a second finger lands or lifts), or is cleared.
    private mutating func touchCountChanged(at t: Double) {
        if touches.count == 1, let finger = touches.fingers.first {
            touchMotion.setReference(x: finger.x, y: finger.y, t: t)
        } else {
            touchMotion.clearReference()
        }
    }

    /// Marks the drag as dragged once its finger is beyond the engine's slop (> `slop`) from
    /// where it went down — the same measure that makes a contact not a tap.
    private mutating func trackDrag(finger id: Int, x: Double, y: Double) {
        guard case .dragging(var drag) = touchButton, drag.finger == id, !drag.dragged else { return }
        let dx = x - drag.startX
        let dy = y - drag.startY
        guard dx * dx + dy * dy > gestures.slop * gestures.slop else { return }
        drag.dragged = true
        touchButton = .dragging(drag)
    }

    /// A drag ends. A finger that lifted after dragging keeps the button down under drag
    /// lock (until `t` + `dragLockTimeout`); anything else releases it.
    private mutating func finishDrag(_ drag: TouchDrag, lifted: Bool, at t: Double, into actions: inout [HostAction]) {
        let timeout = settings.dragLockTimeout
        if lifted, drag.dragged, settings.dragLock, timeout.isFinite, timeout > 0 {
            touchButton = .locked(button: drag.button, deadline: t + timeout)
        } else {
            releaseTouchButton(into: &actions)
        }
    }

    /// The touch gestures' button goes up (if they hold one); back to idle.
    private mutating func releaseTouchButton(into actions: inout [HostAction]) {
        switch touchButton {
        case .idle:
            return
        case .tapHeld(let button, _), .locked(let button, _):
            held.release(.button(button), by: .touch, into: &actions)
        case .dragging(let drag):
            held.release(.button(drag.button), by: .touch, into: &actions)
        }
        touchButton = .idle
    }

    // MARK: - The engine's gestures of a touch contact

    // The engine's gesture events of a touch contact: taps click, long-press drags hold the
    // button, two-finger scrolls wheel, pinches zoom, three-finger swipes press keys.

    /// Maps one engine event. Events of a contact that did not begin with a touch (a mouse
    /// or pen, or a cancelled one) are ignored; so are `doubleTap` and `singleTapConfirmed`
    /// (each tap already clicked), `drag` (motion comes from raw moves), `rotate` and the rest,
    /// and the gestures hooks claim (`isClaimed`); `end` may decide taps held for a claim.
    /// Touches passed through as contacts are not mapped: the desktop does their gestures.
    private mutating func map(_ event: GestureEvent, context: EventContext, into actions: inout [HostAction]) {
        guard contact == .touch, contactOwner == nil else { return }
        switch event.gesture {
        case .tap: tap(event, into: &actions)
        case .end: claimHold.contactEnded(at: event.t, claims: settings.claims, held: &held, into: &actions)
        case .longPressDrag where !isClaimed(event): longPressDrag(event, context: context, into: &actions)
        case .scroll where !isClaimed(event):
            var lifted = false
            if case .up = context { lifted = true }
            wheel.scroll(event, lifted: lifted, settings: settings, into: &actions)
        case .pinch where !isClaimed(event): pinch(event, into: &actions)
        case .swipe where !isClaimed(event): swipe(event, into: &actions)
        default: break
        }
    }

    /// `tap`: ends a drag of this contact first (a tap-and-drag candidate that did not drag
    /// releases, so the next click is a full one; a resumed drag lock releases and does not
    /// click). A tap a hook claims clicks nothing, one a claim may still take waits
    /// (`claimTap`). Then, with tap-to-click, the button of `pointers` fingers: one finger with
    /// tap-and-drag goes down and stays until `t` + `multiTapInterval` (a touch before then
    /// drags with it); otherwise down and up at once.
    private mutating func tap(_ event: GestureEvent, into actions: inout [HostAction]) {
        var endsLock = false
        if case .dragging(let drag) = touchButton, drag.origin == .lockResumed { endsLock = true }
        releaseTouchButton(into: &actions)
        guard !endsLock else { return }
        let button = settings.tapToClick ? settings.tapButton(fingers: event.pointers) : nil
        guard !claimHold.claimTap(event, button: button, claims: settings.claims, held: &held, into: &actions), let button
        else { return }
        held.press(.button(button), by: .touch, into: &actions)
        if event.pointers == 1, settings.tapAndDrag {
            touchButton = .tapHeld(button: button, deadline: event.t + gestures.multiTapInterval)
        } else {
            held.release(.button(button), by: .touch, into: &actions)
        }
    }

    /// `longPressDrag`: `began` presses left (right when left-handed), or marks a drag that
    /// already holds a button (tap-and-drag, drag lock) as dragged; `ended` by the finger's
    /// lift finishes the drag (drag lock applies), by anything else (a second finger)
    /// releases; `cancelled` releases.
    private mutating func longPressDrag(_ event: GestureEvent, context: EventContext, into actions: inout [HostAction]) {
        switch event.phase {
        case .began:
            if case .dragging(var drag) = touchButton {
                drag.dragged = true
                touchButton = .dragging(drag)
                return
            }
            releaseTouchButton(into: &actions)
            let button: HostButton = settings.leftHanded ? .right : .left
            held.press(.button(button), by: .touch, into: &actions)
            touchButton = .dragging(
                TouchDrag(
                    origin: .longPress, button: button, finger: touches.fingers.first?.id, startX: event.x, startY: event.y,
                    dragged: true))
        case .changed:
            break
        case .ended:
            guard case .dragging(let drag) = touchButton else { return }
            var lifted = false
            if case .up(let id) = context, drag.finger == nil || drag.finger == id { lifted = true }
            finishDrag(drag, lifted: lifted, at: event.t, into: &actions)
        case .cancelled:
            releaseTouchButton(into: &actions)
        }
    }

    /// `pinch` with pinch zoom on: each new whole zoom step (`ZoomStepper`) is one wheel
    /// detent, up (`dy` −1) zooming in, down (+1) out, with Control pressed before the
    /// pinch's first step and released at its end.
    private mutating func pinch(_ event: GestureEvent, into actions: inout [HostAction]) {
        switch event.phase {
        case .began, .changed:
            guard case .pinch(let scale, _) = event.detail else { return }
            if event.phase == .began { zoom.reset() }
            let steps = zoom.advance(scale: scale, zoomStep: settings.zoomStep)
            guard steps != 0, settings.pinchZoom else { return }
            held.press(.key(.named(.control)), by: .zoom, into: &actions)
            let detent: Double = steps > 0 ? -1 : 1
            for _ in 0..<steps.magnitude { actions.append(.wheel(dx: 0, dy: detent)) }
        case .ended, .cancelled:
            zoom.reset()
            held.release(.key(.named(.control)), by: .zoom, into: &actions)
        }
    }

    /// A three-finger `swipe` that ends a drag: the configured key combination of its
    /// direction, if any. One that ends a scroll (fingers lifted down to two, then a flick) is
    /// the scroll's end, as for hooks (`SwipeEnd`), and presses nothing.
    private mutating func swipe(_ event: GestureEvent, into actions: inout [HostAction]) {
        guard event.pointers == 3, case .swipe(let fields) = event.detail, fields.ends == .drag,
            let combination = settings.swipeKeys[fields.direction]
        else { return }
        pressCombination(modifiers: combination.modifiers, key: combination.key, by: .touch, into: &actions)
    }

    /// Whether a long-press drag, scroll, pinch or swipe event is claimed by a hook: it is not
    /// mapped.
    private func isClaimed(_ event: GestureEvent) -> Bool {
        !settings.claims.isEmpty && settings.claims.takes(event)
    }
}
