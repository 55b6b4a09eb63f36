import ArgumentParser
import GestureControl

extension ControlMode: ExpressibleByArgument {}
extension AccelerationProfile: ExpressibleByArgument {}

/// The pointer options `serve` and `replay` share (CONTROL.md "Starting"); the configuration
/// file's `control:` section sets the same and more, and these flags override it.
struct ControlOptions: ParsableArguments {
    @Option(
        name: .customLong("speed"),
        help: ArgumentHelp("Pointer speed factor. (default: \(ControlSettings().speed))", valueName: "factor"))
    var speed: Double?

    @Option(
        name: .customLong("acceleration"),
        help: ArgumentHelp(
            "Pointer acceleration: adaptive (slow moves precise, fast moves far) or flat. (default: \(ControlSettings().acceleration.rawValue))",
            valueName: "profile"))
    var acceleration: AccelerationProfile?

    @Flag(
        name: .customLong("no-natural-scroll"),
        help: "Scroll like a mouse wheel: fingers moving up scroll up. (default: natural, content follows the fingers)")
    var noNaturalScroll = false

    func validate() throws {
        if let speed, !(speed > 0 && speed.isFinite) {
            throw ValidationError("--speed must be a number > 0, not \(speed)")
        }
    }

    /// The file's control settings with these flags applied over them.
    func settings(over file: ControlSettings) -> ControlSettings {
        var settings = file
        if let speed { settings.speed = speed }
        if let acceleration { settings.acceleration = acceleration }
        if noNaturalScroll { settings.naturalScroll = false }
        return settings
    }
}
