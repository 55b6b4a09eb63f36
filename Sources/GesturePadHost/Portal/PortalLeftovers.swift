import Logging

/// What a KDE Plasma session holds — buttons and keys by code — kept in a file of the state
/// folder (`portal-held`, 0600) whenever it changes, so that a server killed while holding
/// something (SIGKILL, a crash) has it released by the next one: KDE 5.27's portal keeps its
/// fake input device across sessions and releases nothing when a client dies
/// (`PortalDesktop.releasesLeftovers`). The next session's first calls release exactly what
/// the file names (releasing all buttons instead would reach the focused window as stray
/// releases: KWin forwards a release of a button that is not down).
///
/// Written on the portal thread only, when what is held changes (a press, a release: not per
/// motion); nothing is written while nothing changes, and nothing waits for the disk (no
/// fsync: the file must outlive the process, not the machine — whose compositor goes too).
struct PortalLeftovers {
    private let store: PortalTokenStore
    private var written = ""
    private var seenChanges = 0
    private let logger: Logger

    static let fileName = "portal-held"

    init(directory: String, logger: Logger) {
        store = PortalTokenStore(directory: directory, name: Self.fileName)
        self.logger = logger
    }

    /// Keeps what `encoder` holds (`heldRecord`) if it changed; nothing held removes the file.
    /// Costs one comparison while nothing was pressed or released.
    mutating func keep(_ encoder: PortalActionEncoder) {
        guard encoder.heldChanges != seenChanges else { return }
        seenChanges = encoder.heldChanges
        let record = encoder.heldRecord
        guard record != written else { return }
        written = record
        if record.isEmpty {
            store.remove()
            return
        }
        do {
            try store.save(record, durable: false)  // a killed process's writes are in the page cache
        } catch {
            logger.warning("control: cannot note what is held (\(error)); a crash now could leave it pressed")
        }
    }

    /// The releases of what a predecessor left (nothing when it left nothing), and the file gone.
    mutating func take() -> [PortalNotify] {
        guard let record = store.load() else { return [] }
        store.remove()
        written = ""
        seenChanges = 0
        let releases = PortalActionEncoder.releases(of: record)
        if !releases.isEmpty {
            logger.notice("control: released \(releases.count) buttons and keys a server that did not stop cleanly left held")
        }
        return releases
    }
}
