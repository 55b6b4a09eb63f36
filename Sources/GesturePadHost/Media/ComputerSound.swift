import GestureControl
import GesturePadSystem

/// The computer's own volume (docs/control.md "Media players and presenter mode"): its sound
/// server's default output, asked and set through PipeWire's `wpctl`, which every PipeWire
/// desktop (GNOME, KDE, sway with PipeWire) has and which needs no root. Each call runs
/// `wpctl` once (about 10 ms): on the media thread, never on the service thread. Where there is
/// no `wpctl` or no PipeWire, `read` is nil and the page falls back to the media keys.
enum ComputerSound {
    /// The default output's volume and mute, or nil when PipeWire cannot be asked.
    static func read() -> MediaSnapshot.Computer? {
        ProgramOutput.read("wpctl", arguments: ["get-volume", "@DEFAULT_AUDIO_SINK@"], timeoutMilliseconds: 1_000)
            .flatMap { parse(String(decoding: $0, as: UTF8.self)) }
    }

    /// Sets the default output's volume (0 … 1); true when `wpctl` did.
    @discardableResult
    static func set(volume: Double) -> Bool {
        let level = min(max(volume, 0), 1)
        let text = String((level * 1000).rounded() / 1000)
        return ProgramOutput.read(
            "wpctl", arguments: ["set-volume", "@DEFAULT_AUDIO_SINK@", text], timeoutMilliseconds: 1_000) != nil
    }

    /// Mutes the default output, or unmutes it; true when `wpctl` did.
    @discardableResult
    static func toggleMute() -> Bool {
        ProgramOutput.read("wpctl", arguments: ["set-mute", "@DEFAULT_AUDIO_SINK@", "toggle"], timeoutMilliseconds: 1_000)
            != nil
    }

    /// `wpctl get-volume`'s line: `Volume: 0.40` or `Volume: 0.40 [MUTED]`.
    static func parse(_ text: String) -> MediaSnapshot.Computer? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard words.count >= 2, words[0] == "Volume:", let volume = Double(words[1]), volume.isFinite, volume >= 0
        else { return nil }
        return MediaSnapshot.Computer(volume: min(volume, 1), muted: words.dropFirst(2).contains("[MUTED]"))
    }
}
