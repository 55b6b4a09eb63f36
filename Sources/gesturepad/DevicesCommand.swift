import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadServer
import Glibc

/// `gesturepad devices`: the phones paired with this computer (docs/server.md "Pairing") —
/// list them, rename one, forget one or all, accept or refuse one waiting to pair. Edits
/// change `devices.json` under its lock, then tell the running server (SIGUSR1), which drops
/// a forgotten phone's connections at once.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List, rename and forget the paired phones; accept one waiting to pair.",
        discussion: """
            The list is devices.json in the state directory ($XDG_STATE_HOME/gesturepad, by default \
            ~/.local/state/gesturepad). A running server is told of every change at once (SIGUSR1): a \
            renamed phone shows its new name, a forgotten phone's connections close, and it must scan \
            the code again to pair. A browser paired from the observer page (watch.html) is listed \
            as an observer (KIND), and a browser that pairs again while its entry is not connected \
            takes that entry over (same name) instead of adding one.
            """,
        subcommands: [List.self, Rename.self, Forget.self, Allow.self, Deny.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the paired phones: name, kind, paired, last seen, connected now.",
            discussion: """
                KIND is touchpad (a phone's page) or observer (a browser paired from the observer page, \
                watch.html: it watches the gestures and cannot be a touchpad; its name begins with \
                "Watching ·").
                """)

        @Flag(
            name: .customLong("json"),
            help: "Print JSON (devices with their kind and state, and the running server's pid).")
        var json = false

        func run() throws {
            let roster = DeviceRoster()
            let list = try roster.list()
            let connected = roster.runningServer.map { Set($0.connectedDevices ?? []) }
            if json {
                print(try roster.json(list, connected: connected))
            } else {
                print(DeviceTable.lines(list, connected: connected).joined(separator: "\n"))
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a paired phone.")

        @Argument(help: "The phone's name (or id).") var name: String
        @Argument(help: "Its new name.") var newName: String

        func run() throws { try DeviceRoster().edit(.rename(name, to: newName)) }
    }

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a paired phone (or all): its connections close, and it must scan the code again.")

        @Argument(help: "The phone's name (or id).") var name: String?
        @Flag(name: .customLong("all"), help: "Forget every paired phone.") var all = false

        func validate() throws {
            if all == (name != nil) { throw ValidationError("name one phone, or give --all") }
        }

        func run() throws { try DeviceRoster().edit(name.map(DeviceEdit.forget) ?? .forgetAll) }
    }

    struct Allow: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accept a phone waiting to pair (serve --confirm-pairing).")

        @Argument(help: "The phone's name (or id).") var name: String

        func run() throws { try DeviceRoster().edit(.allow(name), needsServer: true) }
    }

    struct Deny: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Refuse a phone waiting to pair (serve --confirm-pairing).")

        @Argument(help: "The phone's name (or id).") var name: String

        func run() throws { try DeviceRoster().edit(.deny(name), needsServer: true) }
    }
}

/// The state directory's devices and the server running on it, for the `devices` commands.
struct DeviceRoster {
    let state = StateDirectory(path: XDGDirectories.state())
    var store: DeviceStore { DeviceStore(directory: state) }

    /// The server running on this state directory that pairs devices, if any.
    var runningServer: ServerRecord? {
        guard case .running(let record) = ServerRecord.status(in: state, isRunning: ProcessProbe.isGesturePad),
            record.connectedDevices != nil
        else { return nil }
        return record
    }

    func list() throws -> DeviceList {
        switch store.read() {
        case .missing: return DeviceList()
        case .list(let list): return list
        case .unreadable:
            throw CommandFailure.file("\(state.file(DeviceList.fileName)) is not a device list; fix or remove it")
        }
    }

    /// Makes `edit` and tells the running server; prints what was done.
    func edit(_ edit: DeviceEdit, needsServer: Bool = false) throws {
        let server = runningServer
        if needsServer && server == nil {
            throw CommandFailure.noServer("no server is running (with pairing) here: no phone waits to pair")
        }
        let said: String
        do {
            said = try store.update { list in try list.apply(edit) }
        } catch let error as DeviceEditError {
            throw CommandFailure.file(error.description)
        } catch {
            throw CommandFailure.file("\(error)")
        }
        print(said)
        guard let server else { return }
        guard kill(server.pid, SIGUSR1) == 0 else {
            print("The running server (pid \(server.pid)) could not be told: it applies it when it is next told of a change.")
            return
        }
        if let before = server.devicesReloads, !waitForReload(of: server.pid, after: before) {
            print("The running server (pid \(server.pid)) was told; it has not confirmed yet (busy?): it applies it shortly.")
            return
        }
        print("The running server (pid \(server.pid)) applies it now.")
    }

    /// Waits (up to 3 s) until the server `pid` has taken in a reload after the `before`th: it
    /// reads `devices.json` and acts on it off its service thread, then says so in `server.json`.
    func waitForReload(of pid: Int32, after before: Int) -> Bool {
        for _ in 0..<300 {
            if let record = ServerRecord.read(from: state), record.pid == pid, (record.devicesReloads ?? 0) > before {
                return true
            }
            usleep(10_000)
        }
        return false
    }

    func json(_ list: DeviceList, connected: Set<String>?) throws -> String {
        struct Entry: Encodable {
            var id, name, kind, state, paired: String
            var lastSeen: String?
            var connected: Bool
        }
        struct Output: Encodable {
            var devices: [Entry]
            var serverPid: Int32?
        }
        let entries = list.devices.map {
            Entry(
                id: $0.id, name: $0.name, kind: $0.kind.rawValue, state: $0.state.rawValue, paired: $0.paired,
                lastSeen: $0.lastSeen,
                connected: connected?.contains($0.id) ?? false)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Output(devices: entries, serverPid: runningServer?.pid))
        return String(decoding: data, as: UTF8.self)
    }
}
