/// The rows of a ring, as spans of pixels: what shapes the spotlight's window
/// (`X11Spotlight`). Pure, so it is tested without an X server.
enum RingRows {
    struct Span: Equatable {
        var x: Int
        var y: Int
        var width: Int
    }

    /// For each row of a `diameter` × `diameter` square, the pixels whose centre lies within
    /// the ring of outer radius `diameter / 2` and inner radius that less `thickness`: one span
    /// where the row misses the hole, two where it crosses it.
    static func spans(diameter: Int, thickness: Int) -> [Span] {
        guard diameter > 0 else { return [] }
        let outer = Double(diameter) / 2
        let inner = max(0, outer - Double(max(1, thickness)))
        var spans: [Span] = []
        for y in 0..<diameter {
            let dy = Double(y) + 0.5 - outer
            guard abs(dy) < outer else { continue }
            let outerHalf = (outer * outer - dy * dy).squareRoot()
            let left = Int((outer - outerHalf).rounded())
            let right = Int((outer + outerHalf).rounded())
            guard right > left else { continue }
            if abs(dy) < inner {
                let innerHalf = (inner * inner - dy * dy).squareRoot()
                let holeLeft = Int((outer - innerHalf).rounded())
                let holeRight = Int((outer + innerHalf).rounded())
                if holeLeft > left { spans.append(Span(x: left, y: y, width: holeLeft - left)) }
                if right > holeRight { spans.append(Span(x: holeRight, y: y, width: right - holeRight)) }
            } else {
                spans.append(Span(x: left, y: y, width: right - left))
            }
        }
        return spans
    }
}
