import Foundation
import Testing

@testable import GesturePadConfig

@Suite struct ConfigLocationTests {
    /// --config wins (even when missing: the loader then says so); else the user's file, else
    /// the system's, else none.
    @Test func searchOrder() {
        let env = ["HOME": "/home/me"]
        let user = "/home/me/.config/gesturepad/config.yaml"
        let system = "/etc/gesturepad/config.yaml"
        #expect(
            ConfigLocation.find(explicit: "my.yaml", environment: env, exists: { _ in false })
                == ConfigLocation(path: "my.yaml", origin: .flag))
        #expect(
            ConfigLocation.find(explicit: nil, environment: env, exists: { [user, system].contains($0) })
                == ConfigLocation(path: user, origin: .user))
        #expect(
            ConfigLocation.find(explicit: nil, environment: env, exists: { $0 == system })
                == ConfigLocation(path: system, origin: .system))
        #expect(ConfigLocation.find(explicit: nil, environment: env, exists: { _ in false }) == nil)
    }

    /// XDG_CONFIG_HOME counts when absolute (the XDG spec ignores relative values); no HOME and
    /// no XDG_CONFIG_HOME leaves only the system file.
    @Test func xdgConfigHome() {
        #expect(
            ConfigLocation.userPath(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/me"])
                == "/x/cfg/gesturepad/config.yaml")
        #expect(
            ConfigLocation.userPath(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/me/"])
                == "/home/me/.config/gesturepad/config.yaml")
        #expect(ConfigLocation.userPath(environment: [:]) == nil)
        #expect(ConfigLocation.defaultCandidates(environment: [:]).map(\.path) == ["/etc/gesturepad/config.yaml"])
    }

    /// The banner names the file and where it was found, or every file tried.
    @Test func bannerLines() {
        #expect(ConfigLocation(path: "/e/c.yaml", origin: .system).bannerLine.contains("/e/c.yaml"))
        let none = ConfigLocation.noneLine(environment: ["HOME": "/h"])
        #expect(none.contains("/h/.config/gesturepad/config.yaml") && none.contains("/etc/gesturepad/config.yaml"))
    }

    /// A file loaded from a path knows its folder: relative paths in it (page, logs, recordings,
    /// hook programs) resolve there, not in the working directory.
    @Test func relativePathsResolveAgainstTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gesturepad-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("config.yaml").path
        try """
        log:
          json: logs/gestures.jsonl
          record: recordings
        hooks:
          - {gesture: tap, run: [./scripts/tap.sh]}
          - {gesture: drag, pipe: [python3, pipe.py]}
          - {gesture: swipe, run: [/usr/bin/true]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let config = try ConfigFile.load(path: file)
        let folder = dir.standardizedFileURL.path
        #expect(config.directory == folder)
        #expect(config.resolve(try #require(config.log.jsonPath)) == folder + "/logs/gestures.jsonl")
        #expect(config.resolve(try #require(config.log.recordDirectory)) == folder + "/recordings")
        #expect(config.resolve("/abs") == "/abs")
        #expect(config.hooks.map(\.directory) == [folder, folder, folder])
        #expect(config.hooks.map(\.resolvedProgram) == [folder + "/./scripts/tap.sh", "python3", "/usr/bin/true"])
        // Parsed from text (no file): nothing to resolve against.
        let parsed = try ConfigFile.parse(yaml: "hooks:\n  - {gesture: tap, run: [./x.sh]}\n")
        #expect(parsed.directory == nil && parsed.hooks[0].resolvedProgram == "./x.sh")
    }
}
