import GestureControl

/// A backend that carries `HostAction`s out on the computer (`x11`, `uinput`, `portal`).
///
/// The server calls it on its own (libwebsockets) thread: `perform` must not block — a
/// backend copies the actions into its queue and carries them out on a thread of its own,
/// in order. Whatever it holds down when `releaseAll` or `stop` is called is released.
public protocol ControlBackend: AnyObject, Sendable {
    /// The backend's name as `--control` spells it and `welcome.control.backend` reports it.
    var name: String { get }
    /// Carries out `actions`, in order, after those of earlier calls. Never blocks.
    func perform(_ actions: ArraySlice<HostAction>)
    /// Releases every button and key the backend still holds (after queued actions).
    func releaseAll()
    /// Releases everything, carries out what is queued, and stops; waits for its thread.
    func stop()
}
