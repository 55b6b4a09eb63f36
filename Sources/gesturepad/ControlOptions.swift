import ArgumentParser
import GestureControl

extension ControlMode: ExpressibleByArgument {}
extension AccelerationProfile: ExpressibleByArgument {}

/// The pointer options `serve` and `replay` share (CONTROL.md "Starting"); the configuration
/// file's `control:` section sets the same and more, and these flags override it.
struct ControlOptions: ParsableArguments {
    @Option(
        name: .customLong("speed"),
        help: ArgumentHelp(
            "Pointer speed factor, \(ControlSettings.speedBound.text). (default: \(ControlSettings().speed))",
            valueName: "factor"))
    var speed: Double?

    @Option(
        name: .customLong("acceleration"),
        help: ArgumentHelp(
            "Pointer acceleration: adaptive (slow moves precise, fast moves far) or flat. (default: the backend's: adaptive for x11 and portal, flat for uinput and touchpad, whose desktop accelerates)",
            valueName: "profile"))
    var acceleration: AccelerationProfile?

    @Flag(
        name: .customLong("no-natural-scroll"),
        help: "Scroll like a mouse wheel: fingers moving up scroll up. (default: natural, content follows the fingers)")
    var noNaturalScroll = false

    func validate() throws {
        if let speed, !ControlSettings.speedBound.contains(speed) {
            throw ValidationError("--speed must be a number \(ControlSettings.speedBound.text), not \(speed)")
        }
    }

    /// These flags as an update of the file's settings (`ConfigFile.controlSettings`).
    var update: SettingsUpdate {
        SettingsUpdate(speed: speed, acceleration: acceleration, naturalScroll: noNaturalScroll ? false : nil)
    }
}
