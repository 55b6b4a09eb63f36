import GestureControl

/// The keys a backend holds down on the computer for key actions, in press order, each with
/// what the backend needs to let it go again (`Payload`: an evdev stroke, a keycode and the
/// modifiers its level needs, a keysym …). One rule for every backend: a second press of a
/// held key and a release of a free one change nothing and send nothing; `releaseAll` lets go
/// newest first. (`HeldButtons` is the same for buttons.)
struct HeldKeys<Payload: Sendable>: Sendable {
    struct Entry: Sendable {
        var key: HostKey
        var payload: Payload
    }

    private(set) var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    func isHeld(_ key: HostKey) -> Bool { entries.contains { $0.key == key } }

    /// Records `key` down with `payload` (the caller checked `isHeld` first: it may need to
    /// send something to make the payload).
    mutating func hold(_ key: HostKey, _ payload: Payload) {
        entries.append(Entry(key: key, payload: payload))
    }

    /// Takes `key` off the record: what it was held with, or nil when it was not held.
    mutating func release(_ key: HostKey) -> Payload? {
        guard let index = entries.lastIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index).payload
    }

    /// The newest key still held, taken off the record.
    mutating func popLast() -> Entry? { entries.popLast() }

    mutating func removeAll() { entries.removeAll() }
}
