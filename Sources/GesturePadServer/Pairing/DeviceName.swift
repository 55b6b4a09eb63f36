import FoundationEssentials
import GesturePadSystem
import GestureProtocol

/// A new device's name, as the computer's user will see it ("Pixel 8 · Chrome"): the device
/// from the page's model hint or the `User-Agent`, then the browser. Browsers that reduce
/// their user agent (Chrome on Android says "Android 10; K") name no model: the page then
/// sends one from `navigator.userAgentData` (`/ws?model=`), else the name says "Android phone".
/// Both are the client's word: the name is cleaned (`sanitized`) and only ever shown.
public enum DeviceName {
    /// The longest name kept (characters).
    public static let maxLength = 60

    /// "DEVICE · BROWSER" for a request's `User-Agent` and the page's model hint; a device paired
    /// as an observer is "Watching · DEVICE · BROWSER" ("Watching · Linux · Chrome"), so that no
    /// one takes it for a phone.
    public static func make(userAgent: String?, model: String?, kind: DeviceKind = .touchpad) -> String {
        let agent = userAgent ?? ""
        let device = model.flatMap { sanitized($0) } ?? self.device(in: agent)
        let name = "\(device) · \(browser(in: agent))"
        switch kind {
        case .touchpad: return sanitized(name) ?? "Device"
        case .observer: return sanitized("\(watchingPrefix)\(name)") ?? "Watching"
        }
    }

    /// What an observer's name begins with.
    public static let watchingPrefix = "Watching · "

    /// The longest `User-Agent` kept to recognise an outside client again (characters).
    public static let maxClientLength = 200

    /// Who an outside client pairing with `/ws?token=SECRET` is, to find the entry it made
    /// before (`PairedDevice.tokenClient`): its whole `User-Agent`, cleaned like a name but
    /// kept longer, or "" when it sends none.
    public static func client(userAgent: String?) -> String {
        userAgent.flatMap { sanitized($0, limit: maxClientLength) } ?? ""
    }

    /// `text` made fit to show: control characters dropped, runs of white space one space,
    /// trimmed, at most `limit` characters; nil when nothing is left.
    public static func sanitized(_ text: String, limit: Int = maxLength) -> String? {
        var out = ""
        var space = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                space = !out.isEmpty
                continue
            }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                continue
            }
            if space { out.append(" ") }
            space = false
            out.unicodeScalars.append(scalar)
        }
        if out.count > limit { out = String(out.prefix(limit)).trimmingSuffixSpaces() }
        return out.isEmpty ? nil : out
    }

    /// The browser a user agent names; the specific ones are checked before the engines they
    /// mention too (Edge and Samsung Internet say "Chrome", Chrome says "Safari").
    static func browser(in agent: String) -> String {
        let marks: [(String, String)] = [
            ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("Edg/", "Edge"), ("SamsungBrowser/", "Samsung Internet"),
            ("OPR/", "Opera"), ("OPiOS/", "Opera"), ("FxiOS/", "Firefox"), ("Firefox/", "Firefox"),
            ("CriOS/", "Chrome"), ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
        ]
        return marks.first { agent.contains($0.0) }?.1 ?? "Browser"
    }

    /// The device a user agent names: an Android model, iPhone / iPad, else the system.
    static func device(in agent: String) -> String {
        if agent.contains("iPhone") { return "iPhone" }
        if agent.contains("iPad") { return "iPad" }
        if agent.contains("Android") {
            if let model = androidModel(in: agent) { return model }
            return agent.contains("Mobile") ? "Android phone" : "Android tablet"
        }
        if agent.contains("CrOS") { return "Chromebook" }
        if agent.contains("Windows") { return "Windows" }
        if agent.contains("Macintosh") || agent.contains("Mac OS X") { return "Mac" }
        if agent.contains("Linux") || agent.contains("X11") { return "Linux" }
        return "Device"
    }

    /// The model after "Android N;" in the first parentheses ("Pixel 8", "SM-S918B"), unless
    /// it is the reduced user agent's "K" or a token that is no model ("Mobile", "rv:…").
    static func androidModel(in agent: String) -> String? {
        guard let open = agent.firstIndex(of: "("), let close = agent[open...].firstIndex(of: ")") else { return nil }
        let parts = agent[agent.index(after: open)..<close].split(separator: ";").map {
            $0.trimmingWhitespace()
        }
        guard let android = parts.firstIndex(where: { $0.hasPrefix("Android") }), android + 1 < parts.count else {
            return nil
        }
        var model = parts[android + 1]
        if let build = model.firstRange(of: " Build/") { model = String(model[..<build.lowerBound]) }
        let notModels: Set<String> = ["K", "Mobile", "Tablet", "wv", "U"]
        guard !model.isEmpty, !notModels.contains(model), !model.hasPrefix("rv:") else { return nil }
        return sanitized(model)
    }
}

extension String {
    fileprivate func trimmingSuffixSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
