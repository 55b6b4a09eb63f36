/// The load generator's result: one JSON object on stdout (read by bench/table.py).
struct LoadReport {
    let run: LoadRun

    var json: String {
        let o = run.options
        let m = run.measurements
        var fields: [(String, String)] = [
            ("label", quote(o.label)), ("server", quote(o.server.rawValue)),
            ("mode", quote(o.idle ? "idle" : (o.rate > 0 ? "rate" : "window"))),
            ("connections", "\(o.connections)"), ("ready", "\(run.readyCount)"),
            ("failed", "\(run.failedCount)"), ("rate", "\(o.rate)"), ("window", "\(o.window)"),
            ("seconds", "\(m.measuredSeconds)"), ("frames", "\(m.framesAcked)"),
            ("messages", "\(m.messagesAcked)"),
            ("messagesPerSecond", "\(m.measuredSeconds > 0 ? Double(m.messagesAcked) / m.measuredSeconds : 0)"),
            ("framesPerSecond", "\(m.measuredSeconds > 0 ? Double(m.framesAcked) / m.measuredSeconds : 0)"),
            ("gestures", "\(m.gestureMessages)"), ("gestureSamples", "\(m.gestureLatency.count)"),
            ("completedSamples", "\(m.completedLatency.count)"),
            ("errors", "\(m.errorMessages)"),
            (
                "closeCodes",
                "{" + m.closeCodes.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
            ),
        ]
        for (name, q) in [("p50", 0.5), ("p99", 0.99), ("p999", 0.999)] {
            fields.append(("rtt_\(name)_ms", number(m.roundTrip.quantileMs(q))))
            fields.append(("gesture_\(name)_ms", number(m.gestureLatency.quantileMs(q))))
            fields.append(("completed_\(name)_ms", number(m.completedLatency.quantileMs(q))))
        }
        let seconds = m.measuredSeconds
        fields.append(("serverCPUPercent", number(m.serverCPU.map { seconds > 0 ? $0 / seconds * 100 : 0 })))
        fields.append(("clientCPUPercent", number(m.clientCPU.map { seconds > 0 ? $0 / seconds * 100 : 0 })))
        fields.append(("othersCPUPercent", number(m.othersCPU.map { seconds > 0 ? $0 / seconds * 100 : 0 })))
        fields.append(("rssBeforeKiB", number(m.rssBeforeKiB.map(Double.init))))
        fields.append(("rssAfterKiB", number(m.rssAfterKiB.map(Double.init))))
        if let before = m.rssBeforeKiB, let after = m.rssAfterKiB, run.readyCount > 0 {
            fields.append(("rssPerConnectionKiB", "\(Double(after - before) / Double(run.readyCount))"))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "null" }
}
