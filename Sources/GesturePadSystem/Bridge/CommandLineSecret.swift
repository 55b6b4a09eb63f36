import Glibc

/// Hides a secret given on the command line from the other users of the computer. What `ps`
/// and `/proc/PID/cmdline` show is the process's own argument memory, so overwriting the
/// secret there in place hides it from then on (database clients hide a password given with
/// `-p` the same way). It was visible from the program's start until this call: the help of the
/// option says to prefer a file or the environment.
public enum CommandLineSecret {
    /// Overwrites with `x` every argument equal to `secret`, and the value of every
    /// `--option=secret`; true when one was found.
    public static func hide(_ secret: String) -> Bool {
        let length = secret.utf8.count
        guard length > 0 else { return false }
        var hidden = false
        let argv = CommandLine.unsafeArgv
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = argv[index] else { continue }
            let text = String(cString: argument)
            let whole = strlen(argument)
            if text == secret {
                memset(argument, Int32(UInt8(ascii: "x")), whole)
                hidden = true
            } else if text.hasPrefix("--"), text.hasSuffix("=" + secret) {
                memset(argument + (whole - length), Int32(UInt8(ascii: "x")), length)
                hidden = true
            }
        }
        return hidden
    }
}
