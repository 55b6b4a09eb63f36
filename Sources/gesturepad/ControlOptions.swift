import ArgumentParser
import GestureControl
import GesturePadConfig
import GesturePadHost

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
            "Pointer acceleration: adaptive (slow moves precise, fast moves far) or flat. (default: the backend's: adaptive for x11 and portal, flat for uinput and touchpad, whose desktop accelerates)",
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

    /// The file's control settings with these flags applied over them, for `backend`:
    /// acceleration is `--acceleration`, else the file's, else the backend's own default;
    /// kinetic scrolling the file's, else the backend's.
    func settings(over file: ConfigFile, backend: BackendKind) -> ControlSettings {
        var settings = file.control
        if let speed { settings.speed = speed }
        settings.acceleration = acceleration ?? file.controlAcceleration ?? backend.defaultAcceleration
        settings.kineticScrolling = file.controlKineticScrolling ?? backend.defaultKineticScrolling
        if noNaturalScroll { settings.naturalScroll = false }
        return settings
    }
}
