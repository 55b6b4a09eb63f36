import GestureControl
import GestureEngine

/// Turns the scanned fields of one message object into a typed message or a `ProtocolError`
/// (PROTOCOL.md "Page → server" and "Bad input"). Required fields must be present with the
/// right type; optional ones may be absent or `null`; unknown fields were already ignored.
struct MessageValidator {
    /// Largest coordinate / surface size accepted (PROTOCOL.md: beyond ±1e6 is refused).
    static let coordinateLimit = 1e6
    /// Largest |`t`| accepted, ms (about 31 years of `performance.now()`): within it every
    /// timer interval the engine adds (≥ 0.001 ms) still moves a Double, and every count of
    /// timer ticks fits an `Int`, so no clock value can trap or stall the engine.
    static let timeLimit = GestureEngine.timeLimit
    /// Largest pointer id / `buttons` value accepted (integers exact in a Double).
    static let integerLimit = 9_007_199_254_740_991.0

    let fields: MessageFields
    let type: MessageType

    /// The message's type, or the error for a missing, non-string or unknown `type`.
    static func messageType(_ fields: MessageFields, in s: Span<UInt8>) -> Result<MessageType, ProtocolError> {
        guard let value = fields.type else { return .failure(ProtocolError(.badField, "message: field \"type\" is missing")) }
        guard case .string(let token) = value else {
            return .failure(ProtocolError(.badField, "message: field \"type\" must be a string"))
        }
        for type in MessageType.allCases where JSONStringDecoder.equals(token, type.name, in: s) {
            return .success(type)
        }
        var name = JSONStringDecoder.string(token, in: s)
        if name.count > 40 { name = String(name.prefix(40)) + "…" }
        return .failure(ProtocolError(.unknownType, "unknown message type \"\(name)\""))
    }

    /// The typed message, or the first field error.
    func message(in s: Span<UInt8>) throws(ProtocolError) -> ClientMessage {
        switch type {
        case .hello:
            return .hello(try hello(in: s))
        case .down, .move:
            let sample = try sample(in: s, extras: true)
            return .input(type == .down ? .down(sample) : .move(sample))
        case .up:
            return .input(.up(try sample(in: s, extras: false)))
        case .cancel:
            let id: Int?
            if case .string(let token) = fields.id, JSONStringDecoder.equals(token, "all", in: s) {
                id = nil
            } else if case .number = fields.id {
                id = try integer(.id)
            } else {
                throw fail(.id, fields.id == nil ? "is missing" : "must be an integer or \"all\"")
            }
            return .input(.cancel(id: id, t: try time()))
        case .leave:
            let id = try integer(.id)
            return .input(.leave(id: id, t: try time()))
        case .resize:
            return .input(.resize(width: try size(.width), height: try size(.height)))
        case .text, .key, .button, .spotlight:
            return .control(try controlCommand(in: s))
        case .settings:
            return .settings(try settingsUpdate(in: s))
        case .unpair:
            return .unpair
        case .media:
            return .media(try mediaCommand(in: s))
        case .ping:
            guard case .number(_, let range)? = fields.t else {
                throw fail(.t, fields.t == nil ? "is missing" : "must be a finite number")
            }
            return .ping(t: try time(), echo: range)
        }
    }

    private func hello(in s: Span<UInt8>) throws(ProtocolError) -> HelloMessage {
        guard case .number(let version, _)? = fields.protocol else {
            throw fail(.protocol, fields.protocol == nil ? "is missing" : "must be the number 1")
        }
        guard version == 1 else { throw fail(.protocol, "must be 1 (this server speaks protocol 1)") }
        let role: ConnectionRole
        switch fields.role {
        case .string(let token)? where JSONStringDecoder.equals(token, "touchpad", in: s): role = .touchpad
        case .string(let token)? where JSONStringDecoder.equals(token, "observer", in: s): role = .observer
        case nil: throw fail(.role, "is missing")
        default: throw fail(.role, "must be \"touchpad\" or \"observer\"")
        }
        // An observer draws nothing: its surface size is optional.
        let width = try role == .observer && isAbsent(.width) ? 0 : size(.width)
        let height = try role == .observer && isAbsent(.height) ? 0 : size(.height)
        let dpr = try optionalNumber(.dpr)
        if let dpr, dpr <= 0 { throw fail(.dpr, "must be a number > 0") }
        switch fields.client {
        case nil, .null?, .string?: break
        default: throw fail(.client, "must be a string")
        }
        return HelloMessage(role: role, width: width, height: height, dpr: dpr)
    }

    private func sample(in s: Span<UInt8>, extras: Bool) throws(ProtocolError) -> PointerSample {
        let id = try integer(.id)
        let x = try coordinate(.x)
        let y = try coordinate(.y)
        let t = try time()
        let pointerType: PointerType
        switch fields.pointerType {
        case .string(let token)? where JSONStringDecoder.equals(token, "touch", in: s): pointerType = .touch
        case .string(let token)? where JSONStringDecoder.equals(token, "mouse", in: s): pointerType = .mouse
        case .string(let token)? where JSONStringDecoder.equals(token, "pen", in: s): pointerType = .pen
        case nil: throw fail(.pointerType, "is missing")
        default: throw fail(.pointerType, "must be \"touch\", \"mouse\" or \"pen\"")
        }
        guard extras else { return PointerSample(id: id, x: x, y: y, t: t, pointerType: pointerType) }
        let pressure = try optionalNumber(.pressure)
        var buttons: Int? = nil
        if !isAbsent(.buttons) {
            buttons = try integer(.buttons)
            if let b = buttons, b < 0 { throw fail(.buttons, "must be an integer ≥ 0") }
        }
        return PointerSample(id: id, x: x, y: y, t: t, pointerType: pointerType, buttons: buttons, pressure: pressure)
    }

    /// A required finite number.
    private func number(_ key: MessageFields.Key) throws(ProtocolError) -> Double {
        guard let value = fields[key] else { throw fail(key, "is missing") }
        guard case .number(let n, _) = value, n.isFinite else { throw fail(key, "must be a finite number") }
        return n
    }

    /// An optional finite number (absent or `null` → nil).
    private func optionalNumber(_ key: MessageFields.Key) throws(ProtocolError) -> Double? {
        isAbsent(key) ? nil : try number(key)
    }

    /// The required `t`: finite, within ±`timeLimit` ms.
    private func time() throws(ProtocolError) -> Double {
        let n = try number(.t)
        guard abs(n) <= Self.timeLimit else { throw fail(.t, "must be within ±1e12 ms") }
        return n
    }

    /// A required coordinate: finite, within ±1e6.
    private func coordinate(_ key: MessageFields.Key) throws(ProtocolError) -> Double {
        let n = try number(key)
        guard abs(n) <= Self.coordinateLimit else { throw fail(key, "must be within ±1000000") }
        return n
    }

    /// A required surface size: finite, 0…1e6.
    private func size(_ key: MessageFields.Key) throws(ProtocolError) -> Double {
        let n = try number(key)
        guard n >= 0, n <= Self.coordinateLimit else { throw fail(key, "must be between 0 and 1000000") }
        return n
    }

    /// A required integer (a JSON number with no fractional part, exact in a Double).
    private func integer(_ key: MessageFields.Key) throws(ProtocolError) -> Int {
        guard let value = fields[key] else { throw fail(key, "is missing") }
        guard case .number(let n, _) = value, n.isFinite, n.rounded(.towardZero) == n, abs(n) <= Self.integerLimit
        else { throw fail(key, "must be an integer") }
        return Int(n)
    }

    func isAbsent(_ key: MessageFields.Key) -> Bool {
        switch fields[key] {
        case nil, .null?: true
        default: false
        }
    }

    func fail(_ key: MessageFields.Key, _ rule: String) -> ProtocolError {
        ProtocolError(.badField, "\(type.name): field \"\(key.name)\" \(rule)")
    }
}
