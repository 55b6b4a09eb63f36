/// What the server holds on the X server — buttons down, keys down, spare keycodes bound — as
/// the release guard (`X11ReleaseGuard`) learns it from the server through a pipe, so that it
/// can undo exactly that when the server dies. Pure: records in, the entries to undo out.
///
/// The X server keeps an XTest client's presses after the client is gone (a button stays down,
/// Control stays held). The server tells its guard of a press *before* sending it to the X
/// server and of a release *after* the X server has it, so the guard's ledger is never short
/// of something really held; at worst it releases something already up, which the X server
/// ignores.
///
/// On the pipe each record is one ASCII line: `+` or `-`, a kind letter (`b` a core button,
/// `k` a keycode held, `m` a spare keycode bound), a space and the number: `+b 1`, `-k 37`.
struct X11ReleaseLedger: Sendable, Equatable {
    /// One thing the server holds.
    enum Entry: Sendable, Hashable {
        /// A core button down (1 left, 2 middle, 3 right).
        case button(Int)
        /// A keycode down.
        case key(Keycode)
        /// A spare keycode bound to a keysym: the guard unbinds it.
        case binding(Keycode)
    }

    /// One change.
    enum Record: Sendable, Hashable {
        case held(Entry)
        case letGo(Entry)
    }

    /// What is held now, oldest first (so that the guard lets go newest first, as a hand does).
    private(set) var entries: [Entry] = []

    /// Applies one record; a second `held` of the same entry or a `letGo` of one not held
    /// changes nothing.
    mutating func apply(_ record: Record) {
        switch record {
        case .held(let entry):
            guard !entries.contains(entry) else { return }
            entries.append(entry)
        case .letGo(let entry):
            entries.removeAll { $0 == entry }
        }
    }

    /// Applies every complete line of `text` (a chunk read from the pipe may end in the middle
    /// of a line: the rest is returned, to be put in front of the next chunk). Lines that are
    /// not records are skipped.
    mutating func apply(lines text: Substring) -> Substring {
        var rest = text
        while let newline = rest.firstIndex(of: "\n") {
            if let record = Self.record(parsing: rest[..<newline]) { apply(record) }
            rest = rest[rest.index(after: newline)...]
        }
        return rest
    }

    /// `record` as its line, newline included.
    static func line(for record: Record) -> String {
        let (sign, entry): (Character, Entry) =
            switch record {
            case .held(let entry): ("+", entry)
            case .letGo(let entry): ("-", entry)
            }
        switch entry {
        case .button(let number): return "\(sign)b \(number)\n"
        case .key(let keycode): return "\(sign)k \(keycode)\n"
        case .binding(let keycode): return "\(sign)m \(keycode)\n"
        }
    }

    /// One line (no newline) as a record; nil when it is not one.
    static func record(parsing line: Substring) -> Record? {
        let parts = line.split(separator: " ")
        guard parts.count == 2, parts[0].count == 2, let number = UInt32(parts[1]) else { return nil }
        let sign = parts[0].first
        let entry: Entry
        switch parts[0].last {
        case "b":
            guard number >= 1, number <= 255 else { return nil }
            entry = .button(Int(number))
        case "k":
            guard number <= 255 else { return nil }
            entry = .key(number)
        case "m":
            guard number <= 255 else { return nil }
            entry = .binding(number)
        default: return nil
        }
        switch sign {
        case "+": return .held(entry)
        case "-": return .letGo(entry)
        default: return nil
        }
    }
}
