/// The XKB keymap the virtual keyboard uploads: the user's layout (`base`, the text xkbcommon
/// writes for it) with characters the layout lacks bound to spare key codes, one character per
/// key, at its first level. Pure: text in, text out.
///
/// Spare key codes start past the layout's last (xkbcommon's evdev keymap names codes up to
/// 708: XF86AudioMicMute is 256), so that every character of one `text` (up to 1,000
/// different ones) fits in one upload; the compositor and its Wayland clients take key codes
/// of any size (X11 clients of XWayland see none above 255).
struct VirtualKeymap: Sendable, Hashable {
    /// The user's layout as XKB text (`xkb_keymap_get_as_string`).
    let base: String
    /// The first XKB key code of the spare keys: past the base's `maximum`.
    let firstSpareKeycode: UInt32
    /// The characters on spare keys, in key order: `extras[i]` is on XKB key code
    /// `firstSpareKeycode + i`.
    private(set) var extras: [Unicode.Scalar] = []

    init(base: String) {
        self.base = base
        let maximum = base.split(separator: "\n").first(where: { Self.isMaximum(String($0)) })
        firstSpareKeycode = max(256, (maximum.flatMap { Self.baseMaximum(String($0)) } ?? 255) + 1)
    }

    /// The evdev code of the spare key typing `scalar`, if it has one.
    func evdevCode(of scalar: Unicode.Scalar) -> UInt32? {
        extras.firstIndex(of: scalar).map { firstSpareKeycode + UInt32($0) - 8 }
    }

    /// Binds the spare keys to `scalars` (in order, duplicates once). Returns false when they
    /// already are (no upload needed).
    mutating func bind(_ scalars: [Unicode.Scalar]) -> Bool {
        var seen = Set<Unicode.Scalar>()
        let wanted = scalars.filter { seen.insert($0).inserted }
        guard wanted != extras else { return false }
        extras = wanted
        return true
    }

    /// The keymap text: `base` with one key name and code per extra character in its
    /// `xkb_keycodes` section (its `maximum` raised past the last), and one key in its
    /// `xkb_symbols` section. `base` unchanged without extras, or when it has not the shape
    /// xkbcommon writes.
    var text: String {
        guard !extras.isEmpty else { return base }
        var lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let keycodes = lines.firstIndex(where: { $0.hasPrefix("xkb_keycodes") }),
            let maximum = lines[keycodes...].firstIndex(where: { Self.isMaximum($0) }),
            let symbols = lines.firstIndex(where: { $0.hasPrefix("xkb_symbols") })
        else { return base }
        let last = firstSpareKeycode + UInt32(extras.count) - 1
        let names = extras.indices.map { "<GP\($0)>" }
        let symbolLines = zip(names, extras).map { name, scalar in "\tkey \(name) { [ \(Self.keysymName(scalar)) ] };" }
        lines.insert(contentsOf: symbolLines, at: symbols + 1)
        // And one key without symbols past the last spare one: xkbcommon's maximum is the last
        // key named, and some clients search `minimum ..< maximum` (mutter, KWin).
        let codeLines =
            names.enumerated().map { index, name in "\t\(name) = \(firstSpareKeycode + UInt32(index));" }
            + ["\t<GPEND> = \(last + 1);"]
        lines[maximum] = "\tmaximum = \(max(last + 1, Self.baseMaximum(lines[maximum]) ?? last));"
        lines.insert(contentsOf: codeLines, at: maximum + 1)
        return lines.joined(separator: "\n")
    }

    /// The XKB name of the keysym typing `scalar` (`U20AC`: xkbcommon gives Latin-1 its
    /// legacy keysym, every other character its Unicode keysym).
    static func keysymName(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private static func isMaximum(_ line: String) -> Bool {
        line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("maximum")
    }

    private static func baseMaximum(_ line: String) -> UInt32? {
        let digits = line.filter(\.isNumber)
        return UInt32(digits)
    }
}
