/// A desktop's release number (`5.27.5`), compared part by part.
struct DesktopVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    var parts: [Int]

    init(_ parts: Int...) {
        self.parts = parts
    }

    /// `"5.27.5"` → 5.27.5; nil unless it is numbers separated by dots.
    init?(_ text: Substring) {
        let numbers = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !numbers.isEmpty, numbers.count <= 4 else { return nil }
        var parts: [Int] = []
        for number in numbers {
            guard let number, number >= 0 else { return nil }
            parts.append(number)
        }
        self.parts = parts
    }

    /// KWin's version from its `org.kde.KWin.supportInformation` text (the line
    /// `KWin version: 5.27.5`). KWin and xdg-desktop-portal-kde are released together as parts
    /// of KDE Plasma, with the same number: the portal's own version, which it does not publish.
    static func fromKWinSupportInformation(_ text: String) -> DesktopVersion? {
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("KWin version:") else { continue }
            return DesktopVersion(trimmed.dropFirst("KWin version:".count).drop { $0 == " " }.prefix { !$0.isWhitespace })
        }
        return nil
    }

    static func < (a: DesktopVersion, b: DesktopVersion) -> Bool {
        for index in 0..<max(a.parts.count, b.parts.count) {
            let left = index < a.parts.count ? a.parts[index] : 0
            let right = index < b.parts.count ? b.parts[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    static func == (a: DesktopVersion, b: DesktopVersion) -> Bool { !(a < b) && !(b < a) }

    func hash(into hasher: inout Hasher) {
        var trimmed = parts
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    var description: String { parts.map(String.init).joined(separator: ".") }
}

/// The releases that show a behaviour: from `since` (included) to `fixed` (excluded; nil: not
/// fixed in any release known). An unknown version is taken to show it when it is still
/// unfixed — the behaviour of the releases people run today.
struct ReleaseRange: Sendable, Hashable {
    var since: DesktopVersion
    var fixed: DesktopVersion?

    func contains(_ version: DesktopVersion?) -> Bool {
        guard let version else { return fixed == nil }
        return version >= since && fixed.map { version < $0 } ?? true
    }
}
