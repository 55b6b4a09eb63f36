/// The move tickets given and not yet used (docs/protocol.md "Moving to HTTPS"): when the
/// server speaks TLS, a paired phone whose page is still the plain-HTTP one proves its key over
/// a plain connection and is given a ticket, sealed; its page opens the https address with it,
/// and the ticket proves the device there once, giving it a new key (the page's storage is per
/// origin, so the key kept by the http page cannot be reached from the https one).
///
/// Pure: tickets and time come in. Only each ticket's SHA-256 is kept, in memory (a restart
/// forgets them: the http page asks again), one per device (a newer one replaces it), for
/// `lifetime` ms.
struct MoveTickets: Sendable {
    /// How long a ticket proves its device: long enough to trust the certificate on the phone
    /// first (docs/server.md "HTTPS: --tls"), short enough that a ticket left in a history
    /// entry is dead.
    static let lifetime: Double = 30 * 60 * 1_000

    private struct Entry: Sendable, Hashable {
        var digest: String
        var expires: Double
    }

    private var entries: [String: Entry] = [:]

    /// Ticket `ticket` (its text; only its digest is kept) proves device `id` until `now` +
    /// `lifetime`; an earlier ticket of the device is let go.
    mutating func give(_ ticket: String, to id: String, now: Double) {
        entries = entries.filter { $0.value.expires > now }
        entries[id] = Entry(digest: DeviceKey.digest(ticket), expires: now + Self.lifetime)
    }

    /// The digests of the tickets still valid at `now`, by device id (what `ProofJudge` checks).
    func digests(now: Double) -> [String: String] {
        entries.filter { $0.value.expires > now }.mapValues(\.digest)
    }

    /// Device `id`'s ticket was used (or the device is gone): it proves nothing any more.
    mutating func take(_ id: String) {
        entries.removeValue(forKey: id)
    }
}
