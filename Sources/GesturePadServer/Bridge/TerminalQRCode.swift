import CQREncode

/// QR codes for the terminal, encoded by libqrencode.
public enum TerminalQRCode {
    /// The QR symbol of `text` (8-bit mode, error correction L: the smallest symbol), or `nil`
    /// when libqrencode refuses it.
    public static func matrix(for text: String) -> QRMatrix? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits are metadata.
        let modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
        return QRMatrix(width: width, modules: modules)
    }

    /// The terminal drawing of `text`'s QR code (see `QRTerminalRenderer`), or no lines.
    public static func lines(for text: String, ansi: Bool) -> [String] {
        guard let matrix = matrix(for: text) else { return [] }
        return QRTerminalRenderer.render(matrix, ansi: ansi)
    }
}
