import CUInput

/// What a virtual input device declares before it is created: its name, bus, keys and
/// buttons, relative and absolute axes, and input properties. Pure; `UInputDevice.create`
/// carries it out with the uinput ioctls.
struct UInputDeviceSpec: Sendable, Hashable {
    /// An absolute axis: its range and resolution (units per mm for positions).
    struct AbsoluteAxis: Sendable, Hashable {
        var code: EvdevCode
        var minimum: Int32
        var maximum: Int32
        var resolution: Int32 = 0
    }

    /// The name the device shows (`libinput list-devices`, `/proc/bus/input/devices`, the
    /// desktop's settings).
    var name: String
    var bus = UInt16(BUS_VIRTUAL)
    var keys: [EvdevCode] = []
    var relativeAxes: [EvdevCode] = []
    var absoluteAxes: [AbsoluteAxis] = []
    var properties: [EvdevCode] = []

    /// The event types the device sends: `EV_SYN` always, the others when it has such codes.
    var eventTypes: [Int32] {
        var types = [EV_SYN]
        if !keys.isEmpty { types.append(EV_KEY) }
        if !relativeAxes.isEmpty { types.append(EV_REL) }
        if !absoluteAxes.isEmpty { types.append(EV_ABS) }
        return types
    }
}
