import Foundation

// gesturepad-loadgen: N WebSocket connections on one thread (libwebsockets client API), each
// replaying pointer traces as page-like batches, against `gesturepad serve` or an echo
// server. Prints one JSON object (LoadReport) on stdout. See docs/benchmarks.md.

guard let options = LoadOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data((LoadOptions.usage + "\n").utf8))
    exit(2)
}
let script: TraceScript
do {
    script = try TraceScript(directory: options.traces, names: options.names, frameMs: options.frameMs)
} catch {
    FileHandle.standardError.write(Data("gesturepad-loadgen: \(error.description)\n".utf8))
    exit(2)
}
let client = LWSClient(options: options, script: script)
guard client.start() else {
    FileHandle.standardError.write(Data("gesturepad-loadgen: cannot create the libwebsockets context\n".utf8))
    exit(1)
}
client.serve()
print(LoadReport(run: client.run).json)
