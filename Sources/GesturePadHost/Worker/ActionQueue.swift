import Dispatch
import GestureControl

/// One entry of an `ActionWorker`'s queue: an action, or a marker that keeps its place among
/// the actions.
enum WorkItem: Sendable {
    case action(HostAction)
    /// `releaseAll()`: release what is held once the actions queued before it are carried out.
    case releaseAll
    /// Signalled once everything queued before it is carried out and flushed (tests, draining).
    case barrier(DispatchSemaphore)
}

/// The bounded queue behind `ActionWorker.perform`, kept apart from the thread so its policy is
/// testable: appending never allocates once the reserved storage is warm, and a full queue
/// sheds what is safe to lose.
///
/// - motion, wheel, `wheelStop` and a touch's move are dropped once `capacity` items wait;
/// - presses (button or key down), text and a touch landing once twice that many wait;
/// - releases (button or key up, a touch lifting), a touch surface and `releaseAll` are never
///   dropped, so nothing stays held.
struct ActionQueue: Sendable {
    /// How many items may wait before motion and wheel are dropped.
    let capacity: Int
    /// Items waiting, oldest first.
    private(set) var items: [WorkItem] = []
    /// Actions dropped since the queue was made.
    private(set) var droppedTotal = 0
    /// Actions dropped since the last `takeDropCount()`.
    private var droppedSinceTaken = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        items.reserveCapacity(reservedCapacity)
    }

    /// Storage reserved up front: room for both limits, and for releases past them.
    var reservedCapacity: Int { capacity * 2 + 64 }

    var isEmpty: Bool { items.isEmpty }

    /// Queues `action`, or drops and counts it when the queue is too full for its kind.
    /// Returns whether it was queued.
    @discardableResult
    mutating func append(_ action: HostAction) -> Bool {
        if let limit = limit(for: action), items.count >= limit {
            droppedTotal += 1
            droppedSinceTaken += 1
            return false
        }
        items.append(.action(action))
        return true
    }

    /// Queues a marker; markers are never dropped.
    mutating func append(marker: WorkItem) {
        items.append(marker)
    }

    /// Moves the waiting items into `batch` (which must be empty) by swapping storage, so
    /// neither side allocates.
    mutating func take(into batch: inout [WorkItem]) {
        swap(&items, &batch)
    }

    /// The number of actions dropped since the last call.
    mutating func takeDropCount() -> Int {
        defer { droppedSinceTaken = 0 }
        return droppedSinceTaken
    }

    /// How many waiting items make the queue too full for `action`; nil: never too full.
    private func limit(for action: HostAction) -> Int? {
        switch action {
        case .motion, .wheel, .wheelStop: capacity
        case .button(_, .down), .key(_, .down), .text: capacity * 2
        case .button(_, .up), .key(_, .up), .touchSurface, .spotlight: nil
        case .contact(let contact):
            switch contact.phase {
            case .move: capacity
            case .down: capacity * 2
            case .up, .cancel: nil
            }
        }
    }
}
