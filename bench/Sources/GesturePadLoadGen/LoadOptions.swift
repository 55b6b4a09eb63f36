/// The load generator's command line (see `LoadOptions.usage`).
struct LoadOptions {
    /// What the server speaks.
    enum Server: String { case gesture, echo }

    var host = "127.0.0.1"
    var port = 8765
    var path = "/ws"
    var token: String? = nil
    var server = Server.gesture
    var connections = 50
    /// Pointer messages per second per connection; 0 = as fast as the window allows.
    var rate = 0.0
    /// Frames in flight per connection when `rate` is 0.
    var window = 10
    /// One frame in this many ends with a `ping` (the acknowledgement); 1: every frame.
    var pingEvery = 4
    var seconds = 5.0
    var warmup = 1.0
    /// Idle mode: connect (and hello), hold, measure the server's RSS; send no pointers.
    var idle = false
    var hold = 2.0
    /// The server's pid, for its RSS (VmRSS).
    var pid: Int? = nil
    var connectTimeout = 20.0
    /// Messages within one animation frame of the trace's clock are one batch; 0: one per line.
    var frameMs = 1000.0 / 60
    var traces = "Tests/Fixtures/traces"
    var names = ["tap_single", "tap_double", "swipe_batched", "drag_slow", "pinch_out", "scroll_two_finger", "rotate_cw"]
    /// A label copied into the result (e.g. which server this was).
    var label = ""

    static let usage = """
        usage: gesturepad-loadgen [--host 127.0.0.1] [--port P] [--path /ws] [--token T]
                                  [--server gesture|echo] [--connections N] [--rate R | --window W] [--ping-every K]
                                  [--seconds S] [--warmup S] [--idle [--hold S]] [--pid PID]
                                  [--traces DIR] [--names a,b,c] [--frame-ms MS] [--label TEXT]
        """

    static func parse(_ arguments: [String]) -> LoadOptions? {
        var options = LoadOptions()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--idle" {
                options.idle = true
                continue
            }
            guard let value = iterator.next() else { return nil }
            switch argument {
            case "--host": options.host = value
            case "--port": guard let v = Int(value) else { return nil }; options.port = v
            case "--path": options.path = value
            case "--token": options.token = value
            case "--server": guard let v = Server(rawValue: value) else { return nil }; options.server = v
            case "--connections": guard let v = Int(value), v > 0 else { return nil }; options.connections = v
            case "--rate": guard let v = Double(value), v >= 0 else { return nil }; options.rate = v
            case "--window": guard let v = Int(value), v > 0, v <= 512 else { return nil }; options.window = v
            case "--seconds": guard let v = Double(value) else { return nil }; options.seconds = v
            case "--warmup": guard let v = Double(value) else { return nil }; options.warmup = v
            case "--hold": guard let v = Double(value) else { return nil }; options.hold = v
            case "--pid": options.pid = Int(value)
            case "--connect-timeout": guard let v = Double(value) else { return nil }; options.connectTimeout = v
            case "--ping-every": guard let v = Int(value), v > 0 else { return nil }; options.pingEvery = v
            case "--frame-ms": guard let v = Double(value), v >= 0 else { return nil }; options.frameMs = v
            case "--traces": options.traces = value
            case "--names": options.names = value.split(separator: ",").map(String.init)
            case "--label": options.label = value
            default: return nil
            }
        }
        return options
    }

    /// The request path with the token query, if any.
    var requestPath: String {
        guard let token else { return path }
        return path + (path.contains("?") ? "&" : "?") + "token=" + token
    }
}
