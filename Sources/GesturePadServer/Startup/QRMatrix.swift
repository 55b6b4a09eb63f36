/// A QR code symbol as a square of modules (`true` is dark), row by row.
public struct QRMatrix: Sendable, Hashable {
    public let width: Int
    public let modules: [Bool]

    /// `modules.count` must be `width * width`; otherwise the matrix is empty.
    public init(width: Int, modules: [Bool]) {
        if width > 0 && modules.count == width * width {
            self.width = width
            self.modules = modules
        } else {
            self.width = 0
            self.modules = []
        }
    }

    /// The module at column `x`, row `y`; outside the symbol (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < width else { return false }
        return modules[y * width + x]
    }
}
