import Foundation
import GestureEngine
import Testing

/// The public traces (copied into Tests/Fixtures/traces) through the engine alone, checked
/// against their `.expect.json` by the rules of the trace checker.
struct TraceFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/traces")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.sorted()
    }

    /// Every fixture trace yields exactly the expected gestures (changed events left out).
    @Test(arguments: TraceFixtureTests.names)
    func fixtureTrace(_ name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
        let expectData = try Data(contentsOf: Self.folder.appendingPathComponent(name + ".expect.json"))
        let expect = try #require(
            (try JSONSerialization.jsonObject(with: expectData) as? [String: Any])?["expect"] as? [String: [[String: Any]]])
        let events = TraceReplayer.replay(try TraceReplayer.load(text))
        var byName: [String: [GestureEvent]] = [:]
        for e in events where e.phase != .changed { byName[e.gesture.name, default: []].append(e) }
        for (gesture, wanted) in expect {
            let got = byName.removeValue(forKey: gesture) ?? []
            #expect(got.count == wanted.count, "\(name): \(gesture) expected \(wanted.count), got \(got.map(\.phase.name))")
            for (w, g) in zip(wanted, got) {
                for (key, value) in w {
                    let actual = EventFields.value(of: g, key)
                    #expect(
                        EventFields.matches(value, actual),
                        "\(name): \(gesture).\(key) expected \(value), got \(String(describing: actual))")
                }
            }
        }
        #expect(byName.isEmpty, "\(name): unexpected \(byName.mapValues { $0.map(\.phase.name) })")
        let times = events.map(\.t)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 }, "\(name): events out of time order")
    }
}
