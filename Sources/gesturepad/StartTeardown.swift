/// What `serve` has started so far (the sinks and their hook processes, the recorder, the
/// control backend, the media thread, the notifier), to stop in reverse order when a later step
/// of the start fails — so a failed start leaves no hook process or thread behind.
struct StartTeardown {
    private var steps: [() -> Void] = []

    /// `step` stops what was just started.
    mutating func add(_ step: @escaping () -> Void) {
        steps.append(step)
    }

    /// Stops everything added, the last first, then throws `error`.
    func fail(_ error: any Error) throws -> Never {
        for step in steps.reversed() { step() }
        throw error
    }
}
