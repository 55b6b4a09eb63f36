import GestureEngine
import GestureProtocol

#if canImport(Glibc)
    import Glibc
#endif

// gesturepad-bench: engine / replay / session micro-benchmarks (see docs/benchmarks.md).
//
//   gesturepad-bench [--mode all|engine|decode|replay|replay-single|session] [--seconds S]
//                    [--passes N] [--cycles C]
//
// Prints one JSON object per benchmark on stdout. `--passes` runs a fixed amount of work
// (for valgrind: allocation counts and callgrind profiles) instead of a fixed time.

var mode = "all"
var seconds = 2.0
var passes: Int? = nil
var cycles = 200
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    let value = arguments.next() ?? ""
    switch argument {
    case "--mode": mode = value
    case "--seconds": seconds = Double(value) ?? seconds
    case "--passes": passes = Int(value)
    case "--cycles": cycles = Int(value) ?? cycles
    default:
        print(
            "usage: gesturepad-bench [--mode all|engine|decode|replay|replay-single|session|session-control] [--seconds S] [--passes N] [--cycles C]"
        )
        exit(2)
    }
}

let benchmarks = MicroBenchmarks(script: StrokeScript(cycles: cycles), minSeconds: seconds, passes: passes)
let modes = mode == "all" ? ["engine", "decode", "replay", "replay-single", "session", "session-control"] : [mode]
for name in modes {
    let result: MicroBenchmarks.Result
    switch name {
    case "engine": result = benchmarks.engine()
    case "replay": result = benchmarks.replay(asBatch: true)
    case "replay-single": result = benchmarks.replay(asBatch: false)
    case "session": result = benchmarks.session()
    case "session-control": result = benchmarks.session(control: true)
    case "decode": result = benchmarks.decode()
    case "inputs":
        // The size of one pass, for per-event arithmetic in the bench script.
        print("{\"bench\":\"inputs\",\"units\":\(benchmarks.script.inputs.count),\"frames\":\(benchmarks.script.frames.count)}")
        continue
    default:
        print("unknown mode \(name)")
        exit(2)
    }
    print(result.json)
}
