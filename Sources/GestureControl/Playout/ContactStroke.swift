/// The touchpad backend's side of prediction (pure): a desktop touchpad tracks contacts, not
/// motion, so a stroke of one finger is predicted as that contact carried on — the same
/// `MotionPrediction` in 1/`units` CSS px, written as the contact placed at its real position
/// plus what was played ahead. Only while exactly one contact is down: two fingers (a scroll, a
/// pinch) are paced, never predicted.
struct ContactStroke: Sendable {
    /// Prediction's units per CSS px: fine enough that a slow finger still moves.
    static let units = 16.0

    /// The contacts down, by the page's pointer id (and connection).
    private var down: [Int] = []
    /// The last real position of the one contact down (nil: none, or several).
    private var real: TouchContact? = nil
    /// The real position, in units, rounded as deltas were taken (so deltas add up exactly).
    private var unitsX = 0
    private var unitsY = 0
    /// The latest `t` written for the contact: predicted frames come later than real ones,
    /// and the backend paces frames by `t`, so `t` never goes back.
    private var lastT = -Double.infinity

    init() { down.reserveCapacity(16) }

    /// Whether `contact` moves the one contact down, after it landed.
    func isTracked(_ contact: TouchContact) -> Bool {
        contact.phase == .move && down.count == 1 && real?.id == contact.id && real?.owner == contact.owner
    }

    /// Whether predicted motion can be written as a contact (one contact is down and moved).
    var isActive: Bool { real != nil && down.count == 1 }

    /// A contact's landing, lift, cancel or untracked move, as it is written: returned with its
    /// `t` no earlier than one written before it.
    mutating func note(_ given: TouchContact) -> TouchContact {
        var contact = given
        contact.t = max(contact.t, lastT)
        defer { lastT = contact.t }
        switch contact.phase {
        case .down:
            if !down.contains(contact.id) { down.append(contact.id) }
            real = down.count == 1 ? contact : nil
            unitsX = Self.toUnits(contact.x)
            unitsY = Self.toUnits(contact.y)
        case .up, .cancel:
            down.removeAll { $0 == contact.id }
            real = nil
        case .move:
            break
        }
        return contact
    }

    /// The motion, in units, from the real position to `contact`'s (no change of state).
    func delta(to contact: TouchContact) -> (dx: Int, dy: Int) {
        (Self.toUnits(contact.x) - unitsX, Self.toUnits(contact.y) - unitsY)
    }

    /// The tracked contact moved for real to `contact`: the motion, in units.
    mutating func advance(to contact: TouchContact) -> (dx: Int, dy: Int) {
        let step = delta(to: contact)
        unitsX += step.dx
        unitsY += step.dy
        real = contact
        return step
    }

    /// The contact written at its real position plus `debt` (units) — ahead of the finger while
    /// predicted, back on it when the debt is zero — at page time `t` (never before the last).
    mutating func placed(debtX: Int, debtY: Int, t: Double) -> HostAction? {
        guard var contact = real else { return nil }
        contact.phase = .move
        contact.x = Double(unitsX + debtX) / Self.units
        contact.y = Double(unitsY + debtY) / Self.units
        contact.t = max(t, lastT)
        lastT = contact.t
        return .contact(contact)
    }

    /// The connection's contacts are all gone (everything was handed over at once).
    mutating func reset() {
        down.removeAll(keepingCapacity: true)
        real = nil
    }

    private static func toUnits(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int((min(max(value, -1e9), 1e9) * units).rounded())
    }
}
