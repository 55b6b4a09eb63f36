/// Stops the run as a crash when a property every input must keep is broken: libFuzzer
/// reports a deadly signal and saves the input as `crash-…` in the artifacts folder.
public func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    guard !condition() else { return }
    fatalError("invariant broken: \(message())", file: file, line: line)
}
