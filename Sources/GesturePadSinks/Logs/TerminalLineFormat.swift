import GestureEngine

/// How one terminal log line looks. Shows the common fields and the gesture's key fields;
/// leaves out the bulky ones (`start*`, `dd*`, `predicted*`), which the JSON log keeps.
struct TerminalLineFormat: Sendable {
    let color: Bool

    static let hiddenFields: Set<String> = [
        "startX", "startY", "ddx", "ddy", "predictedX", "predictedY", "predictedDx", "predictedDy",
    ]

    func append(_ item: LogItem, into out: inout [UInt8]) {
        switch item {
        case .event(let event, let session, let time):
            time.appendClock(into: &out)
            out.append(contentsOf: "  ".utf8)
            appendSafe(session, into: &out)
            out.append(contentsOf: "  ".utf8)
            paint(phaseColor(event.phase), bold: event.phase != .changed, into: &out) {
                $0.append(contentsOf: pad(event.gesture.name, 20).utf8)
            }
            paint(phaseColor(event.phase), bold: false, into: &out) {
                $0.append(contentsOf: pad(event.phase.name, 11).utf8)
            }
            out.append(contentsOf: "x=\(Self.short(event.x)) y=\(Self.short(event.y)) p=\(event.pointers)".utf8)
            event.forEachField { name, value in
                let key = name.description
                guard !Self.hiddenFields.contains(key) else { return }
                out.append(contentsOf: " \(key)=".utf8)
                switch value {
                case .number(let d): out.append(contentsOf: Self.short(d).utf8)
                case .integer(let i): out.append(contentsOf: String(i).utf8)
                case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
                case .name(let s): out.append(contentsOf: s.utf8)
                }
            }
        case .session(let session, let open, let time):
            time.appendClock(into: &out)
            out.append(contentsOf: "  ".utf8)
            appendSafe(session, into: &out)
            paint("2", bold: false, into: &out) { $0.append(contentsOf: (open ? "  session opened" : "  session closed").utf8) }
        case .note:
            return  // notes become activity lines (`ActivitySummary`)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// `05:48:44.801  1  tap ×2`: one thing the person did (bold), a command (green) or a
    /// release by the silence rule (yellow).
    func append(_ line: ActivityLine, into out: inout [UInt8]) {
        line.time.appendClock(into: &out)
        out.append(contentsOf: "  ".utf8)
        appendSafe(line.session, into: &out)
        out.append(contentsOf: "  ".utf8)
        let code: String
        switch line.kind {
        case .gesture: code = "39"
        case .command: code = "32"
        case .release: code = "33"
        }
        paint(code, bold: true, into: &out) { $0.append(contentsOf: line.text.utf8) }
        out.append(UInt8(ascii: "\n"))
    }

    /// A number with at most two decimals (`12`, `-3.5`, `0.98`).
    static func short(_ value: Double) -> String {
        guard value.isFinite else { return "nan" }
        let scaled = (value * 100).rounded()
        if scaled == (scaled / 100).rounded() * 100 { return String(Int64(scaled / 100)) }
        return GestureJSON.numberText(scaled / 100)
    }

    private func phaseColor(_ phase: GesturePhase) -> String {
        switch phase {
        case .began: "32"  // green
        case .changed: "2"  // dim
        case .ended: "36"  // cyan
        case .cancelled: "31"  // red
        }
    }

    private func paint(_ code: String, bold: Bool, into out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        guard color else { return body(&out) }
        out.append(contentsOf: "\u{1B}[\(bold ? "1;" : "")\(code)m".utf8)
        body(&out)
        out.append(contentsOf: "\u{1B}[0m".utf8)
    }

    /// Session ids are shown with control characters replaced, so no client text can move
    /// the cursor or recolour the terminal.
    private func appendSafe(_ text: String, into out: inout [UInt8]) {
        for byte in text.utf8 { out.append(byte < 0x20 || byte == 0x7F ? UInt8(ascii: "?") : byte) }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
