/// What `serve` has started (the sinks and their hook processes, the recorder, the control
/// backend, the notifier, the media thread), each with the step that stops it, in the order it
/// started. One stack for both ends of a run:
/// - a later step of the start fails: everything added stops, the last first (`fail`), so a
///   failed start leaves no hook process or thread behind;
/// - the server's run is over: what the server does not stop itself stops, the last first
///   (`afterRun`) — the server closed the sinks and the recorder it was handed when its last
///   connection had gone.
struct ServeTeardown {
    private var steps: [(stop: () -> Void, serverStops: Bool)] = []

    /// `step` stops what was just started; `serverStops`: the server's run stops it too (the
    /// sinks and the recorder are the server's once it runs), so `afterRun` leaves it.
    mutating func add(serverStops: Bool = false, _ step: @escaping () -> Void) {
        steps.append((step, serverStops))
    }

    /// Stops everything added, the last first, then throws `error`.
    func fail(_ error: any Error) throws -> Never {
        for step in steps.reversed() { step.stop() }
        throw error
    }

    /// Stops, the last first, what the server's run did not.
    func afterRun() {
        for step in steps.reversed() where !step.serverStops { step.stop() }
    }
}
