/// Why a frame is not JSON: the byte offset where parsing stopped and what was expected there.
struct JSONSyntaxError: Error, Sendable, Hashable {
    /// Byte offset into the frame.
    var offset: Int
    /// What the parser expected or found, e.g. `"',' or '}'"`.
    var problem: StaticString

    /// The human text, e.g. `expected ':' at byte 12`.
    var description: String { "\(problem) at byte \(offset)" }

    static func == (lhs: JSONSyntaxError, rhs: JSONSyntaxError) -> Bool {
        lhs.offset == rhs.offset && lhs.problem.description == rhs.problem.description
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(offset)
        hasher.combine(problem.description)
    }
}
