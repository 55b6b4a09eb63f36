/// The version of GesturePad: printed by `gesturepad --version` and sent in `welcome` as
/// `server`. The one place it is written.
public enum GesturePadVersion {
    public static let current = "0.5.0"
    /// `welcome.server`: the product and its version.
    public static let serverName = "gesturepad/\(current)"
}
