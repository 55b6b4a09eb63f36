import FoundationEssentials
import GestureControl
import GestureEngine
import GesturePadSettings
import GesturePadSystem
import GestureProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How hook processes are started (`ChildProcess`): no shell, their own process group (so a
/// timeout or a shutdown kills the whole group, grandchildren included), stdout and stderr to
/// the hook's `HookOutput` pipes (never straight to the server's stderr).
enum HookLaunch {
    /// What to start for a hook: `program` is a name looked up in `PATH`, or with a `/` a path —
    /// a relative one relative to `directory` (the configuration file's folder) when there is
    /// one, never to the server's working directory (which is `$HOME` under systemd, anything
    /// in a terminal). The process starts in `directory` too, so relative paths among its
    /// arguments work (`pipe: [python3, my_pipe.py]`). `variables` come on top of the server's
    /// environment.
    static func launch(
        _ program: String, arguments: [String], in directory: String?, variables: [(String, String)],
        standardInput: Int32, output: HookOutput
    ) -> ChildProcess.Launch {
        ChildProcess.Launch(
            program: HookRule.resolvedPath(program, in: directory), arguments: arguments,
            environment: environment(variables), workingDirectory: directory, standardInput: standardInput,
            standardOutput: output.standardOutput, standardError: output.standardError)
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
    static func environment(_ extra: [(String, String)]) -> [String] {
        ChildProcess.environment(removing: ["GESTUREPAD_TOKEN"], adding: extra)
    }

    /// Returns once `child` has ended, not yet reaped (`ChildProcess.waitUntilEnded`): the
    /// caller forgets it where kills are sent from, then reaps it (`waitForExit`, at once). The
    /// wait blocks a short-lived thread of its own (no polling, no thread of the cooperative pool).
    static func end(of child: ChildProcess) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = SystemThread {
                child.waitUntilEnded()
                done.resume()
            }
            thread.name = "gp-hook-exit"
            thread.start()
        }
    }
}

extension String {
    func replacingNULs() -> String {
        contains("\0") ? String(unicodeScalars.filter { $0 != "\0" }.map(Character.init)) : self
    }
}
