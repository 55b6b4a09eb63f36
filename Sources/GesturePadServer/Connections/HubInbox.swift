/// The hub's one door for the shell: hands it one input at a time and has each answer carried
/// out whole before the next input is handled.
///
/// Carrying out a batch can raise inputs of its own — `unpairDevice` goes to pairing, whose
/// decision closes the connection (`HubInput.refuse`). Such an input waits here until the batch
/// in progress is done, and is handled after it: the hub is never re-entered, and no action of
/// a batch is carried out after the actions of a later input (a timer armed after the close
/// that cancelled it, say), so every action meets the state it was computed for.
final class HubInbox {
    let hub: ConnectionHub
    /// Inputs raised while a batch is carried out, in order.
    private var pending: [HubInput] = []
    /// Whether a batch is being carried out now.
    private var busy = false

    init(hub: ConnectionHub) {
        self.hub = hub
    }

    /// Hands `input` to the hub and its actions to `carryOut`, then every input raised
    /// meanwhile, each batch after the one before. Called while a batch is carried out, it
    /// only queues `input` (`carryOut` is then not used: the batch in progress has its own).
    func submit(_ input: HubInput, carryOut: ([HubAction]) -> Void) {
        guard !busy else {
            pending.append(input)
            return
        }
        busy = true
        defer { busy = false }
        carryOut(hub.handle(input))
        while !pending.isEmpty {
            let next = pending.removeFirst()
            carryOut(hub.handle(next))
        }
    }
}
