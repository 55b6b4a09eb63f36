/// The one record of what a connection holds down on the computer — buttons and keys — and on
/// whose behalf. Every press and every release of the mapper goes through it, so that nothing
/// is pressed twice and nothing is released that is not held.
///
/// Several owners may hold the same target (a tap-drag and the button bar both holding the
/// left button, a pinch and a `key` command both holding Control): the target goes down when
/// its first owner presses it and up when its last owner lets go. Entries keep press order,
/// so that releasing everything lets go in reverse (the key before its modifiers).
struct HeldInputs: Sendable {
    /// A button or a key of the computer.
    enum Target: Sendable, Hashable {
        case button(HostButton)
        case key(HostKey)
    }

    /// Who holds a target: a bit set, so that one entry records several owners.
    struct Owners: OptionSet, Sendable, Hashable {
        let rawValue: UInt16

        /// The touch gestures: tap click, tap-and-drag, long-press drag, drag lock, swipe keys.
        static let touch = Owners(rawValue: 1 << 0)
        /// A pinch's Control.
        static let zoom = Owners(rawValue: 1 << 1)
        /// `key` and `button` commands from the page.
        static let command = Owners(rawValue: 1 << 2)

        /// How many mouse / pen pointers can own buttons at once.
        static let deviceSlots = 8

        /// The mouse or pen pointer in slot `slot` (0 ..< `deviceSlots`).
        static func device(_ slot: Int) -> Owners {
            Owners(rawValue: 1 << (3 + UInt16(slot & 7)))
        }

        /// Every mouse / pen pointer.
        static let allDevices = Owners(rawValue: 0xFF << 3)
    }

    private struct Entry: Sendable {
        var target: Target
        var owners: Owners
    }

    /// Held targets in press order.
    private var entries: [Entry] = [] {
        didSet { version &+= 1 }
    }
    /// Changes whenever `entries` may have: equal values mean nothing was pressed or released
    /// since (the mapper's `heldVersion`).
    private(set) var version: UInt64 = 0

    init() {
        entries.reserveCapacity(16)
    }

    /// True when nothing is held.
    var isEmpty: Bool { entries.isEmpty }

    /// Whether `target` is down (by any owner).
    func isHeld(_ target: Target) -> Bool {
        entries.contains { $0.target == target }
    }

    /// Who holds `target` (empty when it is up).
    func owners(of target: Target) -> Owners {
        entries.first { $0.target == target }?.owners ?? []
    }

    /// `owner` presses `target`: it goes down unless someone already holds it.
    mutating func press(_ target: Target, by owner: Owners, into actions: inout [HostAction]) {
        if let i = entries.firstIndex(where: { $0.target == target }) {
            entries[i].owners.formUnion(owner)
            return
        }
        entries.append(Entry(target: target, owners: owner))
        actions.append(Self.action(target, .down))
    }

    /// `owner` lets go of `target`: it goes up when no other owner holds it. Nothing happens
    /// when `owner` did not hold it.
    mutating func release(_ target: Target, by owner: Owners, into actions: inout [HostAction]) {
        guard let i = entries.firstIndex(where: { $0.target == target }), entries[i].owners.contains(owner) else { return }
        entries[i].owners.subtract(owner)
        if entries[i].owners.isEmpty {
            entries.remove(at: i)
            actions.append(Self.action(target, .up))
        }
    }

    /// `target` goes up whoever holds it (a `button` command's `up`). Nothing when not held.
    mutating func forceRelease(_ target: Target, into actions: inout [HostAction]) {
        guard let i = entries.firstIndex(where: { $0.target == target }) else { return }
        entries.remove(at: i)
        actions.append(Self.action(target, .up))
    }

    /// Every owner in `owners` lets go of everything, last pressed first.
    mutating func release(ownedBy owners: Owners, into actions: inout [HostAction]) {
        var i = entries.count - 1
        while i >= 0 {
            if !entries[i].owners.isDisjoint(with: owners) {
                entries[i].owners.subtract(owners)
                if entries[i].owners.isEmpty {
                    let target = entries.remove(at: i).target
                    actions.append(Self.action(target, .up))
                }
            }
            i -= 1
        }
    }

    /// Everything goes up, last pressed first.
    mutating func releaseEverything(into actions: inout [HostAction]) {
        while let entry = entries.popLast() {
            actions.append(Self.action(entry.target, .up))
        }
    }

    /// Writes the targets held into `snapshot` (buttons as a set, keys in press order); its
    /// `until` is left alone.
    func write(into snapshot: inout HeldSnapshot) {
        for entry in entries {
            switch entry.target {
            case .button(let button): snapshot.insert(button)
            case .key(let key): snapshot.append(key)
            }
        }
    }

    private static func action(_ target: Target, _ state: PressState) -> HostAction {
        switch target {
        case .button(let button): .button(button, state)
        case .key(let key): .key(key, state)
        }
    }
}
