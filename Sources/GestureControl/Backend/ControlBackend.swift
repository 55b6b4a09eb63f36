/// A backend that carries `HostAction`s out on the computer (`x11`, `uinput`, `touchpad`,
/// `portal`, `wlroots`: GesturePadHost). The protocol lives with the actions, beneath the server, so the
/// server drives a backend without depending on any device code; the CLI opens one and hands
/// it over.
///
/// The server calls it on its own (libwebsockets) thread: `perform` must not block — a
/// backend copies the actions into its queue and carries them out on a thread of its own,
/// in order. Whatever it holds down when `releaseAll` or `stop` is called is released.
public protocol ControlBackend: AnyObject, Sendable {
    /// The backend's name as `--control` spells it and `welcome.control.backend` reports it.
    var name: String { get }
    /// What it can type, and whether it takes the touches themselves, as opened (uinput's and
    /// touchpad's: the layout found at start; the portal's: a layout not known yet, then each
    /// one it learns reported through `observeLayout`).
    var capabilities: ControlCapabilities { get }
    /// Carries out `actions`, in order, after those of earlier calls. Never blocks.
    func perform(_ actions: ArraySlice<HostAction>)
    /// Releases every button and key the backend still holds (after queued actions).
    func releaseAll()
    /// Releases everything, carries out what is queued, and stops; waits for its thread.
    func stop()
    /// Whether the backend drives the computer now (`x11`, `uinput`: always once open).
    var status: ControlBackendStatus { get }
    /// Registers the one observer of status changes (the server) and tells it the current
    /// status at once. It is called on the backend's thread and must not block.
    func observeStatus(_ observer: @escaping @Sendable (ControlBackendStatus) -> Void)
    /// Registers the one observer of the desktop's keyboard layout (the server), told the
    /// layout now if known, then every new one, on the backend's thread; it must not block.
    /// The table reported is the one the backend types with from then on.
    func observeLayout(_ observer: @escaping @Sendable (DesktopLayout.Table) -> Void)
    /// Asks the backend to drive the computer again after it became inactive (the portal: a
    /// new session, which may show the desktop's dialog). Called when a touchpad connects; does
    /// nothing while active or already asking. Never blocks.
    func requestControl()
}

/// Backends that are active from the moment they open and never change.
extension ControlBackend {
    public var status: ControlBackendStatus { .active }
    public func observeStatus(_ observer: @escaping @Sendable (ControlBackendStatus) -> Void) { observer(.active) }
    public func requestControl() {}
}

/// Backends whose layout is known at open, for good (in `capabilities`).
extension ControlBackend {
    public func observeLayout(_ observer: @escaping @Sendable (DesktopLayout.Table) -> Void) {}
}
