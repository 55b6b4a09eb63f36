import GestureEngine

/// What one contact (first finger down to last finger up) did, gathered from its gesture
/// events for the one line the terminal log prints at its `end`, in the words the page's feed
/// uses too (docs/outputs.md "One vocabulary"): `pointer` (one finger moved), `drag` (moved
/// with the button held: a long press or a tap first), `scroll` (two fingers, flicked or not),
/// `swipe` (a flick that ends a drag: one finger, or three and more).
struct ContactActivity: Sendable {
    var tapped = false
    /// The contact began right after a tap that was not confirmed yet: a tap-and-drag.
    var afterTap = false
    private var drag: (dx: Double, dy: Double, fingers: Int)?
    private var longPressDrag: (dx: Double, dy: Double)?
    private var longPress: Double?
    private var scroll: (dx: Double, dy: Double)?
    private var pinch: Double?
    private var rotate: Double?
    private var swipe: (fields: SwipeFields, fingers: Int)?

    /// Keeps the latest figures of a gesture of this contact (an `ended` event carries the
    /// totals; `changed` ones, seen only with `--verbose`, are overwritten by it).
    mutating func record(_ event: GestureEvent) {
        switch (event.gesture, event.detail) {
        case (.drag, .motion(let m)): drag = (m.dx, m.dy, event.pointers)
        case (.longPressDrag, .motion(let m)): longPressDrag = (m.dx, m.dy)
        case (.longPress, .duration(let ms)): longPress = ms
        case (.scroll, .scroll(let s)): scroll = (s.dx, s.dy)
        case (.pinch, .pinch(let scale, _)): pinch = scale
        case (.rotate, .rotate(let angle, _)): rotate = angle
        case (.swipe, .swipe(let fields)) where fields.ends == .drag: swipe = (fields, event.pointers)
        default: break
        }
    }

    /// The contact's line: its main gesture and figure (a swipe of three fingers and more, else
    /// a drag or pointer motion — a one-finger flick is `pointer → 180 px · swipe right` —, else
    /// what two fingers did — a swipe that ends a scroll is that scroll —, else a long press);
    /// nil when it did nothing worth a line (a tap has its own).
    func line(cancelled: Bool) -> String? {
        var text: String?
        if let swipe, swipe.fingers != 1 || drag == nil {
            text =
                "swipe \(swipe.fields.direction.name)\(ActivityWords.fingers(swipe.fingers)) · "
                + "\(Int(swipe.fields.distance.isFinite ? swipe.fields.distance.rounded() : 0)) px"
        } else if let longPressDrag {
            text = "drag " + ActivityWords.travel(dx: longPressDrag.dx, dy: longPressDrag.dy)
        } else if let drag {
            let word = drag.fingers == 1 && !afterTap ? "pointer " : "drag "
            // A one-finger flick moves the pointer; the swipe a hook may bind is named after it.
            let flick = swipe.map { " · swipe \($0.fields.direction.name)" } ?? ""
            text = word + ActivityWords.travel(dx: drag.dx, dy: drag.dy) + ActivityWords.fingers(drag.fingers) + flick
        } else {
            var parts: [String] = []
            if let scroll { parts.append("scroll " + ActivityWords.travel(dx: scroll.dx, dy: scroll.dy)) }
            if let pinch { parts.append("pinch " + ActivityWords.scale(pinch)) }
            if let rotate { parts.append("rotate " + ActivityWords.angle(rotate)) }
            if !parts.isEmpty {
                text = parts.joined(separator: " · ")
            } else if let longPress {
                text = "long press " + ActivityWords.seconds(longPress)
            }
        }
        guard let text else { return nil }
        return cancelled ? text + " (cancelled)" : text
    }
}
