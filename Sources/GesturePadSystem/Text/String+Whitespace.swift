/// Trimming as Foundation's `CharacterSet.whitespaces` and `.whitespacesAndNewlines` do it:
/// spaces (Unicode's Zs) and tab, and with newlines also U+000A–U+000D, U+0085, U+2028 and
/// U+2029.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingWhitespace() -> String { trimming { Self.isWhitespace($0) } }

    /// The text without leading and trailing spaces, tabs and line breaks.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { Self.isWhitespace($0) || ("\n"..."\r").contains($0) || ["\u{85}", "\u{2028}", "\u{2029}"].contains($0) }
    }

    /// Whether the two texts are the same but for case (as Foundation's `caseInsensitiveCompare`
    /// judges it: "Straße" matches "STRASSE").
    public func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        uppercased().lowercased() == other.uppercased().lowercased()
    }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }
}
