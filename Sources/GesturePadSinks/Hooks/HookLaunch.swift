import FoundationEssentials
import GestureControl
import GestureEngine
import GesturePadSettings
import GesturePadSystem
import GestureProtocol
import Subprocess
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How hook processes are started: no shell, their own process group (so a timeout or a
/// shutdown kills the whole group, grandchildren included), stdout and stderr to the
/// hook's `HookOutput` pipes (never straight to the server's stderr).
enum HookLaunch {
    /// A program name is looked up in `PATH`; anything with a `/` is a path, and a relative
    /// path is relative to `directory` (the configuration file's folder) when there is one,
    /// never to the server's working directory (which is `$HOME` under systemd, anything in a
    /// terminal).
    static func executable(_ program: String, in directory: String?) -> Executable {
        guard program.contains("/") else { return .name(program) }
        return .path(FilePath(HookRule.resolvedPath(program, in: directory)))
    }

    /// The working directory of a hook's process: the configuration file's folder, so relative
    /// paths among its arguments work too (`pipe: [python3, my_pipe.py]`).
    static func workingDirectory(_ directory: String?) -> FilePath? {
        directory.map { FilePath($0) }
    }

    /// Own process group; when the task running it is cancelled, the group gets SIGKILL.
    static var platformOptions: PlatformOptions {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .milliseconds(200))]
        return options
    }

    /// The `GESTUREPAD_*` variables of one event: `GESTUREPAD_GESTURE`, `_PHASE`, `_T`, `_X`,
    /// `_Y`, `_POINTERS`, `_SESSION`, `_TIME`, and one per own field (`GESTUREPAD_DDX`, …).
    static func variables(for event: GestureEvent, session: String, time: WallTime) -> [(String, String)] {
        var vars: [(String, String)] = []
        for field in GestureCatalog.commonFields {
            if let text = ArgvTemplate.text(of: field, in: event) {
                vars.append((GestureCatalog.environmentName(field), text))
            }
        }
        event.forEachField { name, _ in
            let field = name.description
            if let text = ArgvTemplate.text(of: field, in: event) {
                vars.append((GestureCatalog.environmentName(field), text))
            }
        }
        // The session id is the only text: passed as data, never interpreted; NUL cannot be
        // passed in an environment, so it is removed.
        vars.append(("GESTUREPAD_SESSION", session.replacingNULs()))
        vars.append(("GESTUREPAD_TIME", time.iso8601))
        return vars
    }

    /// The variables of a player event: `GESTUREPAD_MEDIA` (the event), `_STATUS`, `_PLAYER`
    /// (its bus name), `_PLAYER_NAME`, `_TITLE`, `_ARTIST`, `_ALBUM`, `_LENGTH` (those the
    /// player gives), `_TIME`. The texts are data, never interpreted; NUL is removed.
    static func variables(for event: MediaEvent, time: WallTime) -> [(String, String)] {
        var vars: [(String, String)] = [
            ("GESTUREPAD_MEDIA", event.kind.name), ("GESTUREPAD_STATUS", event.status.rawValue),
            ("GESTUREPAD_PLAYER", event.player.replacingNULs()), ("GESTUREPAD_PLAYER_NAME", event.name.replacingNULs()),
        ]
        if let title = event.title { vars.append(("GESTUREPAD_TITLE", title.replacingNULs())) }
        if let artist = event.artist { vars.append(("GESTUREPAD_ARTIST", artist.replacingNULs())) }
        if let album = event.album { vars.append(("GESTUREPAD_ALBUM", album.replacingNULs())) }
        if let length = ArgvTemplate.text(of: "length", in: event) { vars.append(("GESTUREPAD_LENGTH", length)) }
        vars.append(("GESTUREPAD_TIME", time.iso8601))
        return vars
    }

    /// The inherited environment plus `extra`, without the server's access token
    /// (`GESTUREPAD_TOKEN`): a hook has no business connecting as a client.
    static func environment(_ extra: [(String, String)]) -> Environment {
        var updates: [Environment.Key: String?] = [:]
        if let token = Environment.Key(rawValue: "GESTUREPAD_TOKEN") { updates[token] = .some(nil) }
        for (name, value) in extra {
            if let key = Environment.Key(rawValue: name) { updates[key] = value }
        }
        return .inherit.updating(updates)
    }

    /// Returns once our child `pid` has exited, without reaping it (`WNOWAIT`: swift-subprocess
    /// still collects its status). The wait blocks a short-lived thread of its own (no
    /// polling, no thread of the cooperative pool); an error (no such child) counts as exited.
    static func waitForExit(_ pid: Int32) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = SystemThread {
                var info = siginfo_t()
                _ = try? SystemCall.retrying { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
                done.resume()
            }
            thread.name = "gp-hook-exit"
            thread.start()
        }
    }

    /// SIGKILL to the process group `pid` leads (a hook process and everything it started
    /// that stayed in its group).
    static func killGroup(_ pid: Int32) {
        guard pid > 0 else { return }
        _ = kill(-pid, SIGKILL)
    }

    /// Human-readable exit status.
    static func describe(_ status: TerminationStatus) -> String {
        switch status {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}

extension String {
    func replacingNULs() -> String {
        contains("\0") ? String(unicodeScalars.filter { $0 != "\0" }.map(Character.init)) : self
    }
}
