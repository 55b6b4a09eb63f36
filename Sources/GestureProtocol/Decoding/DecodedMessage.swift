/// One message of a frame after decoding: its type when it had a known one (the connection's
/// gate judges that first), and the typed message or why it was refused.
public struct DecodedMessage: Sendable, Hashable {
    /// The message's `type`, when it named a known message.
    public var type: MessageType?
    /// The validated message, or the error to answer.
    public var result: Result<ClientMessage, ProtocolError>

    public init(type: MessageType?, result: Result<ClientMessage, ProtocolError>) {
        self.type = type
        self.result = result
    }
}
