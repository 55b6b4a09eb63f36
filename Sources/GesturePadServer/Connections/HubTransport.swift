/// What `ConnectionHub` asks of the transport (the libwebsockets bridge, or a test double).
/// Connections are named by integer id; the transport maps ids to its own handles.
protocol HubTransport: AnyObject {
    /// Ask for a `SERVER_WRITEABLE` on connection `id` (frames are queued, or it must close).
    func requestWritable(_ id: Int)
    /// Pause (`false`) or resume (`true`) reading from connection `id` (back-pressure).
    func setReceiving(_ id: Int, _ enabled: Bool)
    /// Arm connection `id`'s timer at server-clock `time` (ms), or cancel it (`nil`).
    func schedule(_ id: Int, at time: Double?)
    /// The hub started closing `id`: make sure it goes away even if it never becomes writable.
    func closeStarted(_ id: Int)
}
