import CUInput
import GestureControl

/// The touchpad device's size and units, and where a page's surface lies on it (docs/control.md
/// "The `touchpad` backend"). Pure.
///
/// A CSS px is taken as 1/160 inch (0.15875 mm): an Android dp is exactly that, an iOS point
/// 1/163 inch (2 % less), and phone browsers lay pages out in those units. So the device is
/// about as large as the phone's touch screen, and a finger's travel in mm — what libinput's
/// acceleration, scroll distance, tap and jump thresholds are measured in — is its real travel
/// on the glass. Positions have `unitsPerMillimetre` units per mm (40: 6.35 units per CSS px,
/// finer than a finger needs, coarser than nothing).
///
/// The device is made once, at one size (`fixed`), whatever the phones: a surface is placed
/// on it at its real size, centred — a phone turned sideways, or a second phone of another
/// size, changes nothing the desktop sees (libinput keeps the device it opened, and no frame
/// is written to a device it has not opened yet) — and a surface larger than the device is
/// scaled down to fit, the same factor on both axes.
struct TouchpadGeometry: Sendable, Hashable {
    /// The side of the square device, CSS px (158.75 mm): the longest side of a phone's page
    /// in either orientation (932 for the largest iPhone, 915 for large Androids) fits at its
    /// real size; a tablet's page is scaled down. Its middle is where phones land: libinput's
    /// palm zones at the edges of a large touchpad stay clear of them.
    static let fixedSide = 1_000.0
    /// The size every touchpad device is made at.
    static let fixed = TouchpadGeometry(width: fixedSide, height: fixedSide)

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

    /// The device's size in mm, as libinput reports it (`size 159x159mm` for `fixed`).
    var widthMillimetres: Double { Double(maxX) / Double(Self.unitsPerMillimetre) }
    var heightMillimetres: Double { Double(maxY) / Double(Self.unitsPerMillimetre) }

    /// The device position of `x`, `y` on a surface of `surfaceWidth` × `surfaceHeight` CSS px
    /// (clamped to it): the surface centred on the device, at its real size, or scaled down
    /// alike on both axes when it is larger.
    func position(x: Double, y: Double, surfaceWidth: Double, surfaceHeight: Double) -> (x: Int32, y: Int32) {
        let point = devicePoint(x: x, y: y, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
        return (Self.units(point.x, maximum: maxX), Self.units(point.y, maximum: maxY))
    }

    /// Where `x`, `y` on a surface of `surfaceWidth` × `surfaceHeight` CSS px lies on the
    /// device, in CSS px of the device (a surface of the device's own size maps to itself).
    func devicePoint(x: Double, y: Double, surfaceWidth: Double, surfaceHeight: Double) -> (x: Double, y: Double) {
        let placement = place(surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
        return (
            placement.left + Self.clamp(x, to: placement.width) * placement.scale,
            placement.top + Self.clamp(y, to: placement.height) * placement.scale
        )
    }

    /// Where a surface lies on the device: its top-left corner (CSS px of the device), how many
    /// device px a surface px is, and the surface's size as taken (out-of-range sides clamped).
    func place(surfaceWidth: Double, surfaceHeight: Double) -> (
        left: Double, top: Double, scale: Double, width: Double, height: Double
    ) {
        let surfaceWidth = Self.clampSide(surfaceWidth)
        let surfaceHeight = Self.clampSide(surfaceHeight)
        let scale = min(1, width / surfaceWidth, height / surfaceHeight)
        return (
            (width - surfaceWidth * scale) / 2, (height - surfaceHeight * scale) / 2, scale, surfaceWidth, surfaceHeight
        )
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

    /// Device units for `css` px of the device, clamped to `0...maximum`.
    private static func units(_ css: Double, maximum: Int32) -> Int32 {
        let units = css * millimetresPerCSSPixel * Double(unitsPerMillimetre)
        return Int32(min(max(units.rounded(), 0), Double(maximum)))
    }

    /// `value` within `0...side` (not a number: 0).
    private static func clamp(_ value: Double, to side: Double) -> Double {
        value.isFinite ? min(max(value, 0), side) : 0
    }
}
