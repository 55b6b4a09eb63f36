import ArgumentParser
import GesturePadConfig

extension ConfigError {
    /// Prints every problem (`FILE:LINE:COLUMN: error: …`) and their count on standard error,
    /// and returns the exit status of a bad configuration file: 1, for `serve` and
    /// `check-config` alike (a usage mistake, with the usage text, is 64).
    func report() -> ExitCode {
        var stderr = StandardError()
        print(description, to: &stderr)
        let n = issues.count
        print("\(path): \(n) error\(n == 1 ? "" : "s")", to: &stderr)
        return ExitCode(1)
    }
}
