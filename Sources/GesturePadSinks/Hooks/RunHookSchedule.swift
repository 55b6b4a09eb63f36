/// The policy of one `run` rule, pure: at most `concurrency` processes at once, at most
/// `queueLimit` events waiting (more are dropped and counted), each process killed at its
/// deadline (`timeoutMilliseconds` after its start). The time comes in with each call (the
/// worker clock's milliseconds); the calls return
/// what to start and what to kill, and `nextDeadline` says when to call `expire(at:)`.
///
/// ```
///   submit ──▶ start (a slot is free) │ queue (room left) │ drop (counted)
///   finished(id) ──▶ the next queued event starts in the freed slot
///   expire(at:) ──▶ runs past their deadline: kill them (each once), counted as timed out
///   close() ──▶ no more events; the queued ones still run
///   abandon() ──▶ shutdown deadline: the queue is dropped, every running process killed
/// ```
struct RunHookSchedule<Job: Sendable>: Sendable {
    /// A process to start now.
    struct Start: Sendable {
        var id: Int
        var job: Job
        var deadline: Double
    }

    /// Why a process was killed.
    enum Kill: Sendable, Equatable {
        /// Its deadline passed.
        case timeout
        /// The server stopped before it ended (after the shutdown grace).
        case shutdown
    }

    private struct Running: Sendable {
        var deadline: Double
        var killed: Kill?
    }

    let concurrency: Int
    let queueLimit: Int
    let timeoutMilliseconds: Double
    private var waiting: [Job] = []
    private var head = 0
    private var running: [Int: Running] = [:]
    private var nextID = 0
    private(set) var closing = false
    private(set) var started = 0
    private(set) var dropped = 0
    private(set) var timedOut = 0
    private var reportedDrops = 0

    init(concurrency: Int, queueLimit: Int, timeoutMilliseconds: Double) {
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queueLimit)
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Nothing runs and nothing waits.
    var isIdle: Bool { running.isEmpty && head == waiting.count }

    /// Events waiting for a slot.
    var queued: Int { waiting.count - head }

    /// The earliest deadline of a process not yet killed.
    var nextDeadline: Double? {
        running.values.filter { $0.killed == nil }.map(\.deadline).min()
    }

    /// An event arrived at `now`: the process to start at once, if a slot is free.
    mutating func submit(_ job: Job, at now: Double) -> Start? {
        guard !closing else { return nil }
        if running.count < concurrency { return begin(job, at: now) }
        if queued < queueLimit {
            waiting.append(job)
        } else {
            dropped += 1
        }
        return nil
    }

    /// Process `id` ended at `now`: whether (and why) it was killed, and the next queued
    /// event to start in its slot.
    mutating func finished(_ id: Int, at now: Double) -> (killed: Kill?, next: Start?) {
        let killed = running.removeValue(forKey: id)?.killed
        guard head < waiting.count else { return (killed, nil) }
        let job = waiting[head]
        head += 1
        compactWaiting()
        return (killed, begin(job, at: now))
    }

    /// The processes whose deadline has passed at `now` and that were not killed yet.
    mutating func expire(at now: Double) -> [Int] {
        var due: [Int] = []
        for (id, run) in running where run.killed == nil && run.deadline <= now {
            running[id]?.killed = .timeout
            due.append(id)
        }
        timedOut += due.count
        return due.sorted()
    }

    /// Whether process `id` was already given up (killed at its deadline or at shutdown):
    /// a process whose pid becomes known only now is then killed at once.
    func isKilled(_ id: Int) -> Bool { running[id]?.killed != nil }

    /// No more events are taken; those queued still run.
    mutating func close() { closing = true }

    /// The shutdown deadline passed: queued events are dropped, and the running processes
    /// not killed yet are returned, to kill.
    mutating func abandon() -> [Int] {
        closing = true
        waiting.removeAll()
        head = 0
        var left: [Int] = []
        for (id, run) in running where run.killed == nil {
            running[id]?.killed = .shutdown
            left.append(id)
        }
        return left.sorted()
    }

    /// The total of dropped events when it grew since the last call (for a log message).
    mutating func takeDropReport() -> Int? {
        guard dropped > reportedDrops else { return nil }
        reportedDrops = dropped
        return dropped
    }

    /// Jobs the waiting buffer holds: those queued and those already started but not yet
    /// cleared out of it. At most `2 × queueLimit + 1`, however long the queue stays non-empty.
    var bufferedJobs: Int { waiting.count }

    /// Clears the started jobs out of the front of `waiting`: all at once when the queue is
    /// empty; else once they are at least half of it, so a queue that never empties (a rule
    /// whose events always come faster than its processes end) does not keep every job it
    /// ever queued. Each job is moved at most once per clearing: amortized O(1).
    private mutating func compactWaiting() {
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        } else if head * 2 >= waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
    }

    private mutating func begin(_ job: Job, at now: Double) -> Start {
        let id = nextID
        nextID += 1
        started += 1
        running[id] = Running(deadline: now + timeoutMilliseconds, killed: nil)
        return Start(id: id, job: job, deadline: now + timeoutMilliseconds)
    }
}
