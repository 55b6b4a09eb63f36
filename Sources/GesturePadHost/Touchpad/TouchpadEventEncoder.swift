import CUInput
import GestureControl

/// Turns the touchpad's frames (`TouchpadSlots` changes and the summary after them) into the
/// `input_event`s of the kernel's multi-touch protocol, type B, one `SYN_REPORT` per frame.
/// Pure: it keeps what the device was last told, and writes only what changed.
///
/// Per frame, in order:
/// - per changed slot: `ABS_MT_SLOT` (when another slot than the last one written),
///   `ABS_MT_TRACKING_ID` (a new contact's id, or −1 when it lifts), `ABS_MT_POSITION_X/Y`
///   (when they changed, or the contact is new);
/// - `BTN_TOUCH` 1 when the first finger lands, 0 when the last lifts;
/// - the tool of the finger count: `BTN_TOOL_FINGER` (1), `DOUBLETAP` (2), `TRIPLETAP` (3),
///   `QUADTAP` (4), `QUINTTAP` (5) — exactly one set while fingers are down, the old one
///   released before the new one is set, none with no finger;
/// - `ABS_X` / `ABS_Y`: the position of the finger that landed first (single-touch emulation);
/// - `SYN_REPORT`.
struct TouchpadEventEncoder: Sendable {
    /// The tools, index = fingers − 1.
    static let toolCodes: [Int32] = [
        BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP,
    ]

    private struct Written: Sendable {
        var trackingID: Int = -1
        var x: Int32 = -1
        var y: Int32 = -1
    }

    /// The slot the device takes `ABS_MT_*` events for (the kernel starts at 0).
    private var currentSlot = 0
    private var slots = [Written](repeating: Written(), count: TouchpadSlots.count)
    private var fingers = 0
    private var primary = Written()

    init() {}

    /// The tool key for `fingers` fingers (nil for none).
    static func tool(fingers: Int) -> EvdevCode? {
        guard fingers > 0 else { return nil }
        return EvdevCode(toolCodes[min(fingers, toolCodes.count) - 1])
    }

    /// Appends one frame: `changes` with positions on the owner's surface (`surface`, CSS px),
    /// placed on the device by `geometry`, and the touchpad after them.
    mutating func encode(
        _ changes: ArraySlice<TouchpadSlots.Change>, after summary: TouchpadSlots.Summary, geometry: TouchpadGeometry,
        surface: (width: Double, height: Double), into events: inout [InputEvent]
    ) {
        for change in changes {
            if change.slot != currentSlot {
                events.append(.absolute(ABS_MT_SLOT, Int32(change.slot)))
                currentSlot = change.slot
            }
            var written = slots[change.slot]
            let landed = change.trackingID != written.trackingID
            if landed {
                events.append(.absolute(ABS_MT_TRACKING_ID, Int32(change.trackingID)))
                written.trackingID = change.trackingID
            }
            if change.trackingID >= 0 {
                let p = geometry.position(
                    x: change.x, y: change.y, surfaceWidth: surface.width, surfaceHeight: surface.height)
                if landed || p.x != written.x { events.append(.absolute(ABS_MT_POSITION_X, p.x)) }
                if landed || p.y != written.y { events.append(.absolute(ABS_MT_POSITION_Y, p.y)) }
                written.x = p.x
                written.y = p.y
            }
            slots[change.slot] = written
        }
        if fingers == 0 && summary.fingers > 0 { events.append(.key(EvdevCode(BTN_TOUCH), down: true)) }
        if fingers > 0 && summary.fingers == 0 { events.append(.key(EvdevCode(BTN_TOUCH), down: false)) }
        let oldTool = Self.tool(fingers: fingers)
        let newTool = Self.tool(fingers: summary.fingers)
        if oldTool != newTool {
            if let oldTool { events.append(.key(oldTool, down: false)) }
            if let newTool { events.append(.key(newTool, down: true)) }
        }
        fingers = summary.fingers
        if let first = summary.primary {
            let p = geometry.position(x: first.x, y: first.y, surfaceWidth: surface.width, surfaceHeight: surface.height)
            if p.x != primary.x { events.append(.absolute(ABS_X, p.x)) }
            if p.y != primary.y { events.append(.absolute(ABS_Y, p.y)) }
            primary.x = p.x
            primary.y = p.y
        }
        events.append(.report)
    }

    /// A new device: nothing written to it yet.
    mutating func reset() {
        self = TouchpadEventEncoder()
    }
}
