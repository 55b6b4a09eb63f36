import CUInput
import GestureControl

/// The touchpad device's size and units, from the page's surface (docs/control.md "The
/// `touchpad` backend"). Pure.
///
/// A CSS px is taken as 1/160 inch (0.15875 mm): an Android dp is exactly that, an iOS point
/// 1/163 inch (2 % less), and phone browsers lay pages out in those units. So the device is
/// about as large as the phone's touch screen, and a finger's travel in mm — what libinput's
/// acceleration, scroll distance, tap and jump thresholds are measured in — is its real travel
/// on the glass. Positions have `unitsPerMillimetre` units per mm (40: 6.35 units per CSS px,
/// finer than a finger needs, coarser than nothing).
struct TouchpadGeometry: Sendable, Hashable {
    static let millimetresPerCSSPixel = 25.4 / 160
    static let unitsPerMillimetre: Int32 = 40
    /// The surface sizes a device is made for, CSS px: a page smaller or larger (a resized
    /// desktop window, a bogus `hello`) gets a device of the nearest size in this range.
    static let sideRange = 100.0...4_096.0

    /// The surface the device is made for, CSS px.
    let width: Double
    let height: Double
    /// The largest position on each axis (the smallest is 0).
    let maxX: Int32
    let maxY: Int32

    init(width: Double, height: Double) {
        self.width = Self.clampSide(width)
        self.height = Self.clampSide(height)
        maxX = Self.units(self.width)
        maxY = Self.units(self.height)
    }

    /// The device's size in mm, as libinput reports it (`size 62x134mm`).
    var widthMillimetres: Double { Double(maxX) / Double(Self.unitsPerMillimetre) }
    var heightMillimetres: Double { Double(maxY) / Double(Self.unitsPerMillimetre) }

    /// The device position of `x`, `y` on a surface of `surfaceWidth` × `surfaceHeight` CSS px
    /// (a connection whose surface differs from the device's is scaled into it), clamped.
    func position(x: Double, y: Double, surfaceWidth: Double, surfaceHeight: Double) -> (x: Int32, y: Int32) {
        (Self.scale(x, from: surfaceWidth, to: maxX), Self.scale(y, from: surfaceHeight, to: maxY))
    }

    /// The uinput declaration of a clickpad of this size: five slots, tracking ids, one to five
    /// fingers, `BTN_LEFT`, no pressure; `INPUT_PROP_POINTER` + `INPUT_PROP_BUTTONPAD`.
    func deviceSpec(name: String) -> UInputDeviceSpec {
        let resolution = Self.unitsPerMillimetre
        let axes: [UInputDeviceSpec.AbsoluteAxis] = [
            .init(code: EvdevCode(ABS_X), minimum: 0, maximum: maxX, resolution: resolution),
            .init(code: EvdevCode(ABS_Y), minimum: 0, maximum: maxY, resolution: resolution),
            .init(code: EvdevCode(ABS_MT_SLOT), minimum: 0, maximum: Int32(TouchpadSlots.count - 1)),
            .init(
                code: EvdevCode(ABS_MT_TRACKING_ID), minimum: 0, maximum: Int32(TouchpadSlots.trackingIDLimit - 1)),
            .init(code: EvdevCode(ABS_MT_POSITION_X), minimum: 0, maximum: maxX, resolution: resolution),
            .init(code: EvdevCode(ABS_MT_POSITION_Y), minimum: 0, maximum: maxY, resolution: resolution),
        ]
        let keys = [BTN_LEFT, BTN_TOUCH] + TouchpadEventEncoder.toolCodes
        return UInputDeviceSpec(
            name: name, keys: keys.map { EvdevCode($0) }, absoluteAxes: axes,
            properties: [INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD].map { EvdevCode($0) })
    }

    private static func clampSide(_ side: Double) -> Double {
        side.isFinite ? min(max(side, sideRange.lowerBound), sideRange.upperBound) : sideRange.lowerBound
    }

    private static func units(_ css: Double) -> Int32 {
        Int32((css * millimetresPerCSSPixel * Double(unitsPerMillimetre)).rounded())
    }

    private static func scale(_ value: Double, from side: Double, to maximum: Int32) -> Int32 {
        let fraction = side.isFinite && side > 0 ? value / side : 0
        let units = (fraction.isFinite ? fraction : 0) * Double(maximum)
        return Int32(min(max(units.rounded(), 0), Double(maximum)))
    }
}
