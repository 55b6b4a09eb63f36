import FuzzSupport
import GestureEngine
import GestureProtocol

// Fuzz target (a): `ProtocolSession` fed arbitrary bytes as frames at arbitrary times, with
// its timers and its close, driven the way `ConnectionHub` drives it (nothing after the
// session asked to close but the close, once). Invariants: no trap; every frame written is
// UTF-8 JSON; one gesture frame per event; `nextWakeup` finite or nil; a due timer, fired,
// makes progress; presses and releases balanced; nothing held without a wakeup to release
// it, nor after the close, and no wakeup after it; the page told (`held`) exactly what is
// held after every call.

LibFuzzer.run { data in
    let script = ProtocolScript(data)
    var connection = FuzzConnection(script)
    for step in script.steps {
        switch step {
        case .frame(let delay, let bytes):
            connection.move(by: delay)
            connection.fireDueTimers()
            connection.receive(bytes)
        case .timer(let delay?):
            connection.move(by: delay)
            connection.fire(at: connection.now)
        case .timer(nil):
            connection.fireDueTimers()
        case .close:
            connection.close()
        }
    }
    connection.fireDueTimers()
    connection.move(by: 1_000)
    connection.close()
}
