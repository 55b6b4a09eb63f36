import CUInput
import GestureControl
import Testing

@testable import GesturePadHost

/// The touchpad's multi-touch (type B) event stream, frame by frame (`TouchpadSlots` +
/// `TouchpadEventEncoder`): slots, tracking ids, BTN_TOUCH, exactly one tool, the single touch.
@Suite struct TouchpadEventEncoderTests {
    /// A 400 × 800 CSS px surface: 2540 × 5080 units, 6.35 units a CSS px.
    let geometry = TouchpadGeometry(width: 400, height: 800)

    private struct Pad {
        var slots = TouchpadSlots()
        var encoder = TouchpadEventEncoder()
        var scratch: [TouchpadSlots.Change] = []
        let geometry: TouchpadGeometry

        /// One frame of contacts (owner 1) → its events.
        mutating func frame(_ contacts: [(Int, TouchContact.Phase, Double, Double)]) -> [InputEvent] {
            var events: [InputEvent] = []
            let touches = contacts.map { TouchContact(owner: 1, id: $0.0, phase: $0.1, x: $0.2, y: $0.3, t: 0) }
            slots.applyFrame(touches[...], changes: &scratch) { written, summary in
                encoder.encode(
                    written, after: summary, geometry: geometry, surface: (geometry.width, geometry.height), into: &events)
            }
            return events
        }
    }

    private func abs(_ code: Int32, _ value: Int32) -> InputEvent { .absolute(code, value) }
    private func key(_ code: Int32, _ down: Bool) -> InputEvent { .key(EvdevCode(code), down: down) }

    /// One finger: its slot's tracking id and position, BTN_TOUCH and BTN_TOOL_FINGER, the
    /// single-touch position; a move sends only what changed; the lift clears them all.
    @Test func oneFinger() {
        var pad = Pad(geometry: geometry)
        #expect(
            pad.frame([(1, .down, 100, 200)]) == [
                abs(ABS_MT_TRACKING_ID, 0), abs(ABS_MT_POSITION_X, 635), abs(ABS_MT_POSITION_Y, 1270),
                key(BTN_TOUCH, true), key(BTN_TOOL_FINGER, true), abs(ABS_X, 635), abs(ABS_Y, 1270), .report,
            ])
        #expect(pad.frame([(1, .move, 100, 210)]) == [abs(ABS_MT_POSITION_Y, 1334), abs(ABS_Y, 1334), .report])
        #expect(
            pad.frame([(1, .up, 100, 210)]) == [
                abs(ABS_MT_TRACKING_ID, -1), key(BTN_TOUCH, false), key(BTN_TOOL_FINGER, false), .report,
            ])
    }

    /// Fingers landing and lifting switch the tool: the old one up before the new one down,
    /// never two at once; slots are selected only when another slot's events follow.
    @Test func toolFollowsTheFingerCount() {
        var pad = Pad(geometry: geometry)
        _ = pad.frame([(1, .down, 10, 10)])
        #expect(
            pad.frame([(2, .down, 20, 10)]) == [
                abs(ABS_MT_SLOT, 1), abs(ABS_MT_TRACKING_ID, 1), abs(ABS_MT_POSITION_X, 127), abs(ABS_MT_POSITION_Y, 64),
                key(BTN_TOOL_FINGER, false), key(BTN_TOOL_DOUBLETAP, true), .report,
            ])
        let three = pad.frame([(3, .down, 30, 10), (1, .move, 11, 10)])
        #expect(
            three == [
                abs(ABS_MT_SLOT, 2), abs(ABS_MT_TRACKING_ID, 2), abs(ABS_MT_POSITION_X, 191), abs(ABS_MT_POSITION_Y, 64),
                abs(ABS_MT_SLOT, 0), abs(ABS_MT_POSITION_X, 70), key(BTN_TOOL_DOUBLETAP, false),
                key(BTN_TOOL_TRIPLETAP, true), abs(ABS_X, 70), .report,
            ])
        _ = pad.frame([(4, .down, 40, 10)])
        #expect(
            pad.frame([(5, .down, 50, 10)]).suffix(3) == [key(BTN_TOOL_QUADTAP, false), key(BTN_TOOL_QUINTTAP, true), .report])
        #expect(pad.frame([(1, .up, 11, 10)]).contains(key(BTN_TOOL_QUADTAP, true)))
    }

    /// The single touch (ABS_X / ABS_Y) follows the finger that landed first; when it lifts,
    /// the next oldest.
    @Test func singleTouchIsTheOldestFinger() {
        var pad = Pad(geometry: geometry)
        _ = pad.frame([(1, .down, 10, 10)])
        _ = pad.frame([(2, .down, 100, 100)])
        #expect(!pad.frame([(2, .move, 110, 100)]).contains { $0.type == InputEvent.absoluteType && $0.code == UInt16(ABS_X) })
        let lift = pad.frame([(1, .up, 10, 10)])
        #expect(lift.suffix(3) == [abs(ABS_X, 699), abs(ABS_Y, 635), .report])
    }

    /// Out of the surface: clamped to the device's range.
    @Test func positionsAreClamped() {
        var pad = Pad(geometry: geometry)
        let events = pad.frame([(1, .down, -50, 900)])
        #expect(events.contains(abs(ABS_MT_POSITION_X, 0)) && events.contains(abs(ABS_MT_POSITION_Y, geometry.maxY)))
    }

    /// The tool for each finger count, none for no finger.
    @Test func tools() {
        #expect(TouchpadEventEncoder.tool(fingers: 0) == nil)
        #expect(
            (1...5).compactMap(TouchpadEventEncoder.tool)
                == [
                    BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP,
                ].map { EvdevCode($0) })
    }
}

/// The touchpad's size from the page's surface (docs/control.md): 1/160 inch a CSS px, 40
/// units a mm, and the clickpad declaration libinput needs.
@Suite struct TouchpadGeometryTests {
    /// A 390 × 844 phone is a 61.9 × 134 mm touchpad.
    @Test func phoneSize() {
        let g = TouchpadGeometry(width: 390, height: 844)
        #expect(g.maxX == 2477 && g.maxY == 5359)
        #expect(Swift.abs(g.widthMillimetres - 61.9) < 0.05 && Swift.abs(g.heightMillimetres - 134.0) < 0.05)
    }

    /// Sizes out of range (a bogus hello, a huge desktop window) are clamped; not-a-number is
    /// the smallest.
    @Test func clamped() {
        #expect(TouchpadGeometry(width: 0, height: .nan).width == 100)
        #expect(TouchpadGeometry(width: 1e9, height: 5).height == 100 && TouchpadGeometry(width: 1e9, height: 5).width == 4_096)
    }

    /// A surface lies on the device at its real size, centred; a larger one is scaled down
    /// alike on both axes; positions off the surface are clamped to it.
    @Test func placement() {
        let g = TouchpadGeometry(width: 400, height: 800)
        #expect(g.position(x: 200, y: 400, surfaceWidth: 400, surfaceHeight: 800) == (1270, 2540))
        // 200 × 200 at its real size, centred: its (100, 100) is the device's (200, 400).
        #expect(g.position(x: 100, y: 100, surfaceWidth: 200, surfaceHeight: 200) == (1270, 2540))
        #expect(g.position(x: 0, y: 0, surfaceWidth: 200, surfaceHeight: 200) == (635, 1905))
        // 800 × 800 is halved to fit 400 wide: its (0, 0) is the device's (0, 200).
        #expect(g.position(x: 0, y: 0, surfaceWidth: 800, surfaceHeight: 800) == (0, 1270))
        #expect(g.position(x: 800, y: 800, surfaceWidth: 800, surfaceHeight: 800) == (2540, 3810))
        #expect(g.position(x: -50, y: 9_999, surfaceWidth: 400, surfaceHeight: 800) == (0, 5080))
        // A bogus surface is taken as the smallest (100 × 100), centred.
        #expect(g.position(x: .nan, y: 5, surfaceWidth: 0, surfaceHeight: .infinity) == (953, 2254))
    }

    /// Turned sideways, a phone's surface keeps its scale on the fixed device: a finger's
    /// travel in mm is the same either way round, and its centre stays the device's centre.
    @Test func rotationKeepsTheScale() {
        let g = TouchpadGeometry.fixed
        let portrait = g.place(surfaceWidth: 390, surfaceHeight: 844)
        let landscape = g.place(surfaceWidth: 844, surfaceHeight: 390)
        #expect(portrait.scale == 1 && landscape.scale == 1)
        let a = g.position(x: 100, y: 100, surfaceWidth: 390, surfaceHeight: 844)
        let b = g.position(x: 200, y: 100, surfaceWidth: 390, surfaceHeight: 844)
        let c = g.position(x: 100, y: 100, surfaceWidth: 844, surfaceHeight: 390)
        let d = g.position(x: 200, y: 100, surfaceWidth: 844, surfaceHeight: 390)
        #expect(b.x - a.x == d.x - c.x && b.x - a.x == 635)
        #expect(g.position(x: 195, y: 422, surfaceWidth: 390, surfaceHeight: 844) == (3175, 3175))
        #expect(g.position(x: 422, y: 195, surfaceWidth: 844, surfaceHeight: 390) == (3175, 3175))
    }

    /// The declaration: a clickpad (pointer + buttonpad properties), five slots, tracking ids,
    /// positions with a resolution, BTN_TOUCH and the five tools, BTN_LEFT, no pressure.
    @Test func clickpadSpec() {
        let spec = TouchpadGeometry(width: 390, height: 844).deviceSpec(name: "GesturePad touchpad")
        #expect(spec.name == "GesturePad touchpad")
        #expect(Set(spec.properties) == Set([INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD].map { EvdevCode($0) }))
        let axes = Dictionary(uniqueKeysWithValues: spec.absoluteAxes.map { (Int32($0.code), $0) })
        #expect(axes[ABS_MT_SLOT]?.maximum == 4)
        #expect(axes[ABS_MT_TRACKING_ID]?.maximum == 65_535)
        #expect(axes[ABS_MT_POSITION_X]?.resolution == 40 && axes[ABS_X]?.resolution == 40)
        #expect(axes[ABS_MT_POSITION_Y]?.maximum == 5359)
        #expect(axes[ABS_MT_PRESSURE] == nil && axes[ABS_PRESSURE] == nil)
        #expect(
            Set(spec.keys)
                == Set(
                    [
                        BTN_LEFT, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP,
                        BTN_TOOL_QUINTTAP,
                    ]
                    .map { EvdevCode($0) }))
        #expect(spec.relativeAxes.isEmpty)
        #expect(spec.eventTypes == [EV_SYN, EV_KEY, EV_ABS])
    }
}
