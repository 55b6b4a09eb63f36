/// One pointer position as the page reported it (`down`, `move`, `up`).
public struct PointerSample: Sendable, Hashable {
    /// The browser's `pointerId`.
    public var id: Int
    public var x: Double
    public var y: Double
    /// The browser's `event.timeStamp`, ms.
    public var t: Double
    public var pointerType: PointerType
    /// `PointerEvent.buttons`, when the page sent it.
    public var buttons: Int?
    /// `PointerEvent.pressure`, when the page sent it.
    public var pressure: Double?

    public init(
        id: Int, x: Double, y: Double, t: Double, pointerType: PointerType = .touch,
        buttons: Int? = nil, pressure: Double? = nil
    ) {
        self.id = id
        self.x = x
        self.y = y
        self.t = t
        self.pointerType = pointerType
        self.buttons = buttons
        self.pressure = pressure
    }
}
