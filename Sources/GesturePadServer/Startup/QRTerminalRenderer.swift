/// Draws a `QRMatrix` in a terminal with half-block characters: one text line holds two
/// module rows, so the code stays roughly square and small.
public enum QRTerminalRenderer {
    /// The lines of the drawing, quiet zone included. With `ansi`, dark modules are black
    /// on an explicit white background (readable on any terminal theme); without, light
    /// modules are drawn as blocks, which reads right on the usual dark terminal.
    public static func render(_ matrix: QRMatrix, quietZone: Int = 2, ansi: Bool) -> [String] {
        guard matrix.width > 0 else { return [] }
        let size = matrix.width + 2 * quietZone
        var lines: [String] = []
        var y = 0
        while y < size {
            var line = ansi ? "\u{1B}[30;47m" : ""
            for x in 0..<size {
                let top = matrix.isDark(x: x - quietZone, y: y - quietZone)
                let bottom = y + 1 < size && matrix.isDark(x: x - quietZone, y: y + 1 - quietZone)
                // Draw the "ink" cells: dark ones with ANSI colours, light ones without.
                let inkTop = ansi ? top : !top
                let inkBottom = ansi ? bottom : (y + 1 < size ? !bottom : false)
                line += glyph(top: inkTop, bottom: inkBottom)
            }
            if ansi { line += "\u{1B}[0m" }
            lines.append(line)
            y += 2
        }
        return lines
    }

    private static func glyph(top: Bool, bottom: Bool) -> String {
        switch (top, bottom) {
        case (false, false): " "
        case (true, false): "\u{2580}"
        case (false, true): "\u{2584}"
        case (true, true): "\u{2588}"
        }
    }
}
