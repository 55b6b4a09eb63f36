import GestureControl

/// The configuration reference in the docs, made from the key tables (`ConfigKeys`):
/// `gesturepad check-config --print-keys` prints it, and the docs hold each section's table
/// between `<!-- keys: SECTION -->` and `<!-- end of keys -->` (a test keeps them equal).
public enum ConfigReference {
    /// The line before a section's table in the docs.
    public static func startMarker(_ section: ConfigSection) -> String {
        "<!-- keys: \(section.path ?? "top") (generated: gesturepad check-config --print-keys) -->"
    }

    /// The line after it.
    public static let endMarker = "<!-- end of keys -->"

    /// Every section: a heading and its table.
    public static func markdown() -> String {
        ConfigKeys.sections.map { "### `\($0.path ?? ""):`\n\n" + table($0) }.joined(separator: "\n")
    }

    /// A section's keys as a Markdown table (nested sections' keys as `limits.maxPointers`).
    public static func table(_ section: ConfigSection) -> String {
        var lines = ["| key | type | default | meaning |", "|---|---|---|---|"]
        appendRows(section, prefix: "", to: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func appendRows(_ section: ConfigSection, prefix: String, to lines: inout [String]) {
        for key in section.keys {
            if case .section(let inner) = key.reading {
                appendRows(inner, prefix: prefix + key.name + ".", to: &lines)
                continue
            }
            let defaultValue = key.defaultValue.isEmpty ? "—" : key.defaultValue
            lines.append("| `\(prefix)\(key.name)` | \(key.kind) | \(defaultValue) | \(key.meaning) |")
        }
    }

    /// A default as the docs write it: `1000`, `0.998`.
    static func number(_ value: Double) -> String {
        NumberBound.number(value)
    }
}
