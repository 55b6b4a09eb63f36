import GesturePadSettings
import Testing

@Suite struct ListenChangeTests {
    /// A reload that moves `server.port` or `server.host` says a restart is needed, one line
    /// each, naming the old and new values (defaults spelled out); nothing else is said.
    @Test func aChangedAddressNeedsARestart() {
        let notes = ListenChange.notes(
            before: ServeSettings(port: 8765), after: ServeSettings(host: "0.0.0.0", port: 8080), flags: ServeSettings(),
            file: "c.yaml")
        #expect(notes.count == 2)
        #expect(notes[0].hasPrefix("c.yaml: server.port changed from 8765 to 8080, but a running server cannot move"))
        #expect(notes[0].contains("until it is restarted") && notes[0].contains("pointed at the new address"))
        #expect(notes[1].hasPrefix("c.yaml: server.host changed from every interface (the default) to 0.0.0.0"))
        let removed = ListenChange.notes(
            before: ServeSettings(port: 8080), after: ServeSettings(), flags: ServeSettings(), file: "c.yaml")
        #expect(removed.first?.contains("from 8080 to 8765 (the default)") == true)
        #expect(
            ListenChange.notes(
                before: ServeSettings(port: 1, maxPointers: 2), after: ServeSettings(port: 1, maxPointers: 3),
                flags: ServeSettings(), file: "c.yaml"
            ).isEmpty)
    }

    /// With the flag given, the file's value never applies: the line says the flag decides.
    @Test func aFlagDecides() {
        let notes = ListenChange.notes(
            before: ServeSettings(port: 1), after: ServeSettings(port: 2), flags: ServeSettings(port: 9),
            file: "c.yaml")
        #expect(
            notes == [
                "c.yaml: server.port changed from 1 to 2, but --port 9 on the command line decides over the file: nothing changes, now or at the next start"
            ])
    }
}
