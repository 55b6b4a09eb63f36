import GestureControl

/// A backend whose actions an `ActionWorker` carries out on its own thread (`x11`, `uinput`):
/// `perform`, `releaseAll` and `stop` are the worker's.
protocol WorkerBackend: ControlBackend {
    associatedtype Executor: ActionExecutor
    var worker: ActionWorker<Executor> { get }
}

extension WorkerBackend {
    public func perform(_ actions: ArraySlice<HostAction>) {
        worker.perform(actions)
    }

    public func releaseAll() {
        worker.releaseAll()
    }

    public func stop() {
        worker.stop()
    }
}
