/// WebSocket close codes the protocol uses.
public enum CloseCode: UInt16, Sendable {
    case goingAway = 1001
    case protocolError = 1002
    case unsupportedData = 1003
    case invalidPayload = 1007
    case policyViolation = 1008
    case messageTooBig = 1009
}
