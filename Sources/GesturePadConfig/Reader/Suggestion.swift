/// "Did you mean …?" for misspelt names: the closest candidate by edit distance.
enum Suggestion {
    /// The candidate nearest to `word` (case-insensitive Levenshtein), if it is close enough
    /// to be a likely typo. Never `word` itself: a name that is right but not allowed where it
    /// stands needs another explanation, not a "did you mean" of itself.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates where candidate != word {
            let d = distance(w, Array(candidate.lowercased()))
            if d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        guard let best, best.1 <= max(2, w.count / 3) else { return nil }
        return best.0
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
