import GestureControl
import Logging

/// Carries `HostAction`s out on an X server through XTest. Confined to one thread.
///
/// - motion: `XTestFakeRelativeMotionEvent`;
/// - buttons: core buttons 1 / 2 / 3 (`HostButton.x11Number`), each held one tracked;
/// - wheel: fractional detents accumulate per axis (`WheelAccumulator`); each whole detent is
///   a press and release of button 4 (up) / 5 (down) / 6 (left) / 7 (right). `wheelStop`
///   keeps the remainders: a scroll that stops half a detent short and resumes goes on from
///   there, as a wheel would;
/// - keys and text: planned by `X11Keyboard` (keysyms, Shift, spare keycodes for characters
///   the layout lacks).
///
/// - spotlight: a ring around the pointer (`X11Spotlight`), moved to it after each batch
///   that moved the pointer.
///
/// Requests are buffered by Xlib and sent by `flush` (XFlush), after each batch.
///
/// Every press and binding is told to the release guard (`X11ReleaseGuardLink`) before the X
/// server can have it, every release after: a server that dies leaves nothing pressed. At
/// start, what a predecessor killed together with its guard left down is released.
final class X11Executor: ActionExecutor {
    private let display: X11Display
    private let guardLink: X11ReleaseGuardLink?
    private let logger: Logger
    private var keyboard: X11Keyboard
    private var scroll = ScrollState()
    /// Buttons down, in press order.
    private var heldButtons = HeldButtons<HostButton>()
    /// Reused for every key action and text.
    private var steps: [X11KeyStep] = []
    private var reportedLoss = false
    private let spotlight: X11Spotlight
    /// The pointer moved since the last flush: the spotlight, if shown, follows it.
    private var moved = false

    init(display: X11Display, guardLink: X11ReleaseGuardLink? = nil, logger: Logger) {
        self.display = display
        self.guardLink = guardLink
        self.logger = logger
        keyboard = X11Keyboard(keymap: display.keyboardMapping())
        spotlight = X11Spotlight(display: display)
        steps.reserveCapacity(256)
    }

    /// Opens `displayName` (nil: `DISPLAY`), releases what was left down, and starts the
    /// release guard from `guardExecutable` (this program; nil: no guard); throws a one-line
    /// `ControlBackendError`. A guard that cannot start is logged, not fatal.
    static func open(displayName: String?, guardExecutable: String?, logger: Logger) throws -> X11Executor {
        let display = try X11Display.open(name: displayName)
        let leftDown = display.releaseEverythingDown()
        if leftDown > 0 {
            logger.notice(
                "control: released \(leftDown) buttons and keys left down on the X server (a server that did not stop cleanly)")
        }
        var guardLink: X11ReleaseGuardLink?
        if let guardExecutable {
            do {
                guardLink = try X11ReleaseGuardLink(executable: guardExecutable, displayName: displayName, logger: logger)
            } catch {
                logger.error(
                    "control: cannot start the release guard (\(error)); if the server is killed, input may stay pressed")
            }
        }
        return X11Executor(display: display, guardLink: guardLink, logger: logger)
    }

    func execute(_ action: HostAction) {
        switch action {
        case .motion(let dx, let dy):
            guard dx != 0 || dy != 0 else { return }
            display.fakeRelativeMotion(dx: dx, dy: dy)
            moved = true
        case .button(let button, .down):
            guard heldButtons.change(button, pressed: true) else { return }
            guardLink?.willHold(.button(button.x11Number))
            display.fakeButton(button.x11Number, down: true)
        case .button(let button, .up):
            guard heldButtons.change(button, pressed: false) else { return }
            display.fakeButton(button.x11Number, down: false)
            guardLink?.didLetGo(.button(button.x11Number))
        case .wheel(let dx, let dy):
            let (right, down) = scroll.add(dx: dx, dy: dy)
            click(down.detents, negative: 4, positive: 5)
            click(right.detents, negative: 6, positive: 7)
        case .wheelStop, .contact, .touchSurface:
            break  // no finish in X11; touches pass through only to a native touchpad
        case .key(let key, let state):
            keyboard.key(key, state, into: &steps)
            carryOutSteps()
        case .text(let text):
            keyboard.type(text, into: &steps)
            carryOutSteps()
        case .spotlight(true):
            spotlight.show()
        case .spotlight(false):
            spotlight.hide()
        }
    }

    func flush() {
        if moved {
            moved = false
            spotlight.follow()
        }
        display.flush()
        guardLink?.commit()
        if display.takeKeyboardMappingChanged() {
            keyboard.update(keymap: display.keyboardMapping())
        }
        if display.isConnectionLost, !reportedLoss {
            reportedLoss = true
            logger.error("control: the connection to the X server was lost; the phone no longer moves the pointer")
        }
    }

    func releaseAll() {
        while let button = heldButtons.popLast() {
            display.fakeButton(button.x11Number, down: false)
            guardLink?.didLetGo(.button(button.x11Number))
        }
        keyboard.releaseAll(into: &steps)
        carryOutSteps()
        spotlight.hide()
        display.flush()
        guardLink?.commit()
    }

    func close() {
        releaseAll()
        keyboard.unbindAll(into: &steps)
        carryOutSteps()
        display.sync()
        guardLink?.commit()
        guardLink?.close()
        display.close()
    }

    /// `count` clicks of button `positive` (or, for a negative count, of `negative`).
    private func click(_ count: Int, negative: Int, positive: Int) {
        let button = count < 0 ? negative : positive
        for _ in 0..<count.magnitude {
            display.fakeButton(button, down: true)
            display.fakeButton(button, down: false)
        }
    }

    private func carryOutSteps() {
        for step in steps {
            switch step {
            case .press(let keycode):
                guardLink?.willHold(.key(keycode))
                display.fakeKey(keycode, down: true)
            case .release(let keycode):
                display.fakeKey(keycode, down: false)
                guardLink?.didLetGo(.key(keycode))
            case .bind(let keycode, let keysym):
                if keysym != X11Keysyms.none { guardLink?.willHold(.binding(keycode)) }
                display.bind(keycode, to: keysym)
                if keysym == X11Keysyms.none { guardLink?.didLetGo(.binding(keycode)) }
            case .sync:
                display.sync()
                guardLink?.commit()
            }
        }
        steps.removeAll(keepingCapacity: true)
    }
}
