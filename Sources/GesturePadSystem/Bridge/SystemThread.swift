#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A detached POSIX thread that runs one closure: the workers, waiters and loops that block
/// outside Swift's cooperative pool. (Foundation's `Thread` did this; it is not in
/// FoundationEssentials.)
public final class SystemThread: @unchecked Sendable {
    /// The thread's name as the system shows it (`/proc/…/task/…/comm`): its first 15 bytes.
    public var name: String?
    private let body: @Sendable () -> Void

    public init(block: @escaping @Sendable () -> Void) {
        body = block
    }

    /// Starts the thread; it runs `block` once and ends.
    public func start() {
        let payload = Unmanaged.passRetained(Payload(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                let payload = Unmanaged<Payload>.fromOpaque(raw).takeRetainedValue()
                if let name = payload.name { SystemThread.nameThisThread(name) }
                payload.body()
                return nil
            }, payload)
        if result != 0 {
            Unmanaged<Payload>.fromOpaque(payload).release()
            fatalError("cannot start a thread: \(SystemCall.describe(result))")
        }
    }

    /// Starts a thread without a name that runs `block`.
    public static func detachNewThread(name: String, _ block: @escaping @Sendable () -> Void) {
        let thread = SystemThread(block: block)
        thread.name = name
        thread.start()
    }

    /// The most bytes of a thread's name the kernel keeps.
    public static let nameBytes = 15

    /// `name` as the kernel keeps it: its first 15 bytes, cut before a character that would not
    /// fit whole (a hook's rule name may be any text).
    public static func systemName(_ name: String) -> String {
        var end = name.startIndex
        var bytes = 0
        for index in name.indices {
            bytes += name[index].utf8.count
            guard bytes <= nameBytes else { break }
            end = name.index(after: index)
        }
        return String(name[..<end])
    }

    /// Names the calling thread through `/proc/thread-self/comm`.
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        try? FileIO.write(systemName(name).utf8, to: descriptor)
        close(descriptor)
    }

    private final class Payload {
        let name: String?
        let body: @Sendable () -> Void

        init(name: String?, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
