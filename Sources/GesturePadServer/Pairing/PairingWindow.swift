/// When the pairing secret pairs a new device without asking the computer's user (docs/server.md
/// "Pairing is a moment"): from the moment the code is shown, for `length` ms and for at most
/// `seats` new devices — then it closes until the code is shown again. A leaked link thus pairs
/// a handful of devices at most, not the whole device list, while pairing is open.
struct PairingWindow: Sendable, Hashable {
    /// How long it stays open (ms).
    let length: Double
    /// How many new devices one opening pairs.
    let seats: Int
    /// Until when it is open (server clock, ms); nil: closed.
    private(set) var until: Double?
    /// New devices paired since it opened.
    private(set) var taken = 0

    init(length: Double, seats: Int) {
        self.length = length
        self.seats = seats
    }

    /// Every seat of this opening is taken.
    var isFull: Bool { taken >= seats }

    /// Whether a new device would be paired at `now`.
    func isOpen(at now: Double) -> Bool {
        until.map { now < $0 } ?? false
    }

    /// The code was shown at `now`: open for `length`, every seat free.
    mutating func open(at now: Double) {
        until = now + length
        taken = 0
    }

    mutating func close() {
        until = nil
    }

    /// A new device was paired: one seat fewer; the last one closes the window.
    mutating func take() {
        taken += 1
        if isFull { until = nil }
    }
}
