import ArgumentParser
import FoundationEssentials

/// `gesturepad help [TOPIC | COMMAND…]`: a short text on a topic an installed user needs
/// (`HelpTopic`: control, pairing, observer, tls, config, page), or the help of a command, as
/// swift-argument-parser's own `help` would print it. Messages of the server point here rather
/// than to files of the source tree.
struct HelpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "help",
        abstract: "Explain a topic (control, pairing, observer, tls, config, page) or show a command's help.",
        discussion: "Without a word: the topics and the commands.")

    @Argument(help: "A topic, or a command (and subcommand) name.")
    var words: [String] = []

    func run() throws {
        guard let first = words.first else {
            print(Self.overview())
            return
        }
        if words.count == 1, let topic = HelpTopic(rawValue: first.lowercased()) {
            print(topic.text(udevRules: Self.udevRulesFolder()))
            return
        }
        var command: any ParsableCommand.Type = GesturePad.self
        for word in words {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == word }) else {
                var stderr = StandardError()
                print("gesturepad help: no topic or command \"\(words.joined(separator: " "))\".\n", to: &stderr)
                print(Self.overview(), to: &stderr)
                throw ExitCode(1)
            }
            command = sub
        }
        print(GesturePad.helpMessage(for: command))
    }

    /// The topics, then the commands.
    /// `text` cut or filled with spaces to `width` characters (a column of the overview).
    private static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }

    static func overview() -> String {
        var lines = ["Topics (gesturepad help TOPIC):"]
        let width = HelpTopic.allCases.map(\.rawValue.count).max() ?? 0
        for topic in HelpTopic.allCases {
            lines.append("  " + padded(topic.rawValue, to: width + 2) + topic.summary)
        }
        lines.append("")
        lines.append("Commands (gesturepad help COMMAND):")
        let commands = GesturePad.configuration.subcommands.filter { $0._commandName != "help" }
        // The column as wide as the longest name, so no name runs into its line (issue 42).
        let nameWidth = commands.map { $0._commandName.count }.max() ?? 0
        for command in commands {
            lines.append("  " + padded(command._commandName, to: nameWidth + 2) + command.configuration.abstract)
        }
        lines.append("")
        lines.append("The manual page: man gesturepad.")
        return lines.joined(separator: "\n")
    }

    /// Where the udev rules of this installation are: `<prefix>/share/gesturepad/udev` next to an
    /// installed executable, or `dist/udev` of a source checkout; nil when neither is found.
    static func udevRulesFolder() -> String? {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let installed = folder.appendingPathComponent("../share/gesturepad/udev").standardizedFileURL.path
        if FileManager.default.fileExists(atPath: installed + "/" + HelpTopic.uinputRule) { return installed }
        for _ in 0..<5 {
            let checkout = folder.appendingPathComponent("dist/udev").path
            if FileManager.default.fileExists(atPath: checkout + "/" + HelpTopic.uinputRule) { return checkout }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
