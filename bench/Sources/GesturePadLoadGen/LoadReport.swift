/// The load generator's result: one JSON object on stdout (read by bench/table.py).
struct LoadReport {
    let run: LoadRun
    let failedConnections: Int

    var json: String {
        let o = run.options
        var fields: [(String, String)] = [
            ("label", quote(o.label)), ("server", quote(o.server.rawValue)),
            ("mode", quote(o.idle ? "idle" : (o.rate > 0 ? "rate" : "window"))),
            ("connections", "\(o.connections)"), ("ready", "\(run.readyCount)"),
            ("failed", "\(failedConnections)"), ("rate", "\(o.rate)"), ("window", "\(o.window)"),
            ("seconds", "\(run.measuredSeconds)"), ("frames", "\(run.framesAcked)"),
            ("messages", "\(run.messagesAcked)"),
            ("messagesPerSecond", "\(run.measuredSeconds > 0 ? Double(run.messagesAcked) / run.measuredSeconds : 0)"),
            ("framesPerSecond", "\(run.measuredSeconds > 0 ? Double(run.framesAcked) / run.measuredSeconds : 0)"),
            ("gestures", "\(run.gestureMessages)"), ("gestureSamples", "\(run.gestureLatency.count)"),
            ("completedSamples", "\(run.completedLatency.count)"),
            ("errors", "\(run.errorMessages)"),
            (
                "closeCodes",
                "{" + run.closeCodes.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
            ),
        ]
        for (name, q) in [("p50", 0.5), ("p99", 0.99), ("p999", 0.999)] {
            fields.append(("rtt_\(name)_ms", number(run.roundTrip.quantileMs(q))))
            fields.append(("gesture_\(name)_ms", number(run.gestureLatency.quantileMs(q))))
            fields.append(("completed_\(name)_ms", number(run.completedLatency.quantileMs(q))))
        }
        let seconds = run.measuredSeconds
        fields.append(("serverCPUPercent", number(run.serverCPU.map { seconds > 0 ? $0 / seconds * 100 : 0 })))
        fields.append(("clientCPUPercent", number(run.clientCPU.map { seconds > 0 ? $0 / seconds * 100 : 0 })))
        fields.append(("othersCPUPercent", number(run.othersCPU.map { seconds > 0 ? $0 / seconds * 100 : 0 })))
        fields.append(("rssBeforeKiB", number(run.rssBeforeKiB.map(Double.init))))
        fields.append(("rssAfterKiB", number(run.rssAfterKiB.map(Double.init))))
        if let before = run.rssBeforeKiB, let after = run.rssAfterKiB, run.readyCount > 0 {
            fields.append(("rssPerConnectionKiB", "\(Double(after - before) / Double(run.readyCount))"))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "null" }
}
