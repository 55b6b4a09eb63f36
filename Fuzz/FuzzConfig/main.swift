import FuzzSupport
import GestureEngine
import GesturePadConfig

// Fuzz target (d): the configuration reader, `ConfigFile.parse(yaml:)`, on arbitrary text.
// Invariants: no trap; a refusal names at least one problem, each with a line number
// within the text (or 0) and a message; an accepted file's thresholds are all finite and
// ≥ 0, and a second parse of the same text gives the same result.

LibFuzzer.run { data in
    let text = String(decoding: data, as: UTF8.self)
    // YAML breaks lines at LF, CR, CRLF (and NEL, LS, PS); `isNewline` counts those and a few more.
    let lineCount = text.reduce(1) { $1.isNewline ? $0 + 1 : $0 }
    do throws(ConfigError) {
        let config = try ConfigFile.parse(yaml: text)
        for key in GestureConfig.keys {
            let value = config.gestures.value(forKey: key) ?? .nan
            invariant(value.isFinite && value >= 0, "accepted gestures.\(key) = \(value)")
        }
        let again = try? ConfigFile.parse(yaml: text)
        invariant(again?.gestures == config.gestures, "a second parse differs")
        invariant(again?.control == config.control, "a second parse differs (control)")
    } catch {
        invariant(!error.issues.isEmpty, "a refusal without a problem")
        for issue in error.issues {
            invariant(issue.line >= 0 && issue.line <= lineCount + 1, "issue at line \(issue.line) of \(lineCount)")
            invariant(!issue.message.isEmpty, "an issue without a message")
        }
        invariant(!error.description.isEmpty, "an empty error description")
    }
}
