/// The role a connection declared in its `hello`.
public enum ConnectionRole: Sendable, Hashable {
    case touchpad
    case observer
}
