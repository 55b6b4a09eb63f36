import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#endif

/// The bridge to libFuzzer: the `LLVMFuzzerTestOneInput` entry point and the driver call.
/// The only pointer code of the fuzz targets lives here; a target hands `run` a closure
/// over plain bytes.
public enum LibFuzzer {
    /// The body of the target being run (set once by `run`, before the driver starts).
    nonisolated(unsafe) fileprivate static var body: ([UInt8]) -> Void = { _ in }

    /// Runs libFuzzer's driver with the process's arguments (`-seed=`, `-max_total_time=`,
    /// corpus directories, files to replay…), calling `body` once per input. Exits with the
    /// driver's status: 0, or libFuzzer's error code after a crash, a timeout or a leak.
    public static func run(_ body: @escaping ([UInt8]) -> Void) -> Never {
        Self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}

/// libFuzzer's per-input callback (the symbol every libFuzzer harness defines).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    LibFuzzer.body(bytes)
    return 0
}
