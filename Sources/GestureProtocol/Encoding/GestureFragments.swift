import GestureEngine

/// The constant parts of a `gesture` message, encoded once: the opening, the gesture and
/// phase names with the keys around them per kind × phase, and each detail shape's field keys
/// (taken from `GestureEvent.forEachField`, the one place that names them).
struct GestureFragments: Sendable {
    static let shared = GestureFragments()

    /// `{"type":"gesture","session":`
    static let open = Array(#"{"type":"gesture","session":"#.utf8)
    static let xKey = Array(#","x":"#.utf8)
    static let yKey = Array(#","y":"#.utf8)
    static let pointersKey = Array(#","pointers":"#.utf8)
    /// `,"time":"` (log lines).
    static let timeKey = Array(#","time":""#.utf8)

    /// The most bytes of the common fields but the session and `heads`: the fixed keys, three
    /// numbers and an integer.
    static let commonBytes =
        open.count + xKey.count + yKey.count + pointersKey.count + 3 * JSONSpanWriter.maxNumberBytes
        + JSONSpanWriter.maxIntegerBytes

    /// The longest name (`pointerType`, `reason`, `direction`) the fast path writes.
    static let maxFastNameBytes = 16

    /// The own fields' keys of one detail shape.
    struct FieldKeys: Sendable {
        /// `,"name":` of each field, in `forEachField` order.
        var names: [[UInt8]] = []
        /// The same, one after the other.
        var bytes: [UInt8] = []
        /// Room for all of them: keys, `maxNumberBytes` per value and room for each name of up
        /// to `maxFastNameBytes` (a longer one is written on a slower path).
        var bound = JSONSpanWriter.maxStringBytes(GestureFragments.maxFastNameBytes)
    }

    /// `,"gesture":"drag","phase":"changed","t":` at `kind.ordinal * 4 + phase.ordinal`.
    let heads: [[UInt8]]
    /// At `detail.shape`.
    let keys: [FieldKeys]

    private init() {
        var heads = [[UInt8]](repeating: [], count: GestureKind.allCases.count * 4)
        for kind in GestureKind.allCases {
            for phase in GesturePhase.allCases {
                heads[kind.ordinal * 4 + phase.ordinal] = Array(
                    #","gesture":"\#(kind.name)","phase":"\#(phase.name)","t":"#.utf8)
            }
        }
        self.heads = heads
        var keys = [FieldKeys](repeating: FieldKeys(), count: GestureDetail.samples.count)
        for detail in GestureDetail.samples {
            let event = GestureEvent(gesture: .tap, phase: .ended, t: 0, x: 0, y: 0, pointers: 1, detail: detail)
            var fieldKeys = FieldKeys()
            var names = 0
            event.forEachField { name, value in
                let key = Array(#","\#(name)":"#.utf8)
                fieldKeys.names.append(key)
                fieldKeys.bytes += key
                fieldKeys.bound += key.count + JSONSpanWriter.maxNumberBytes
                if case .name = value { names += 1 }
            }
            // The room for one name is in `bound` already; a swipe has two (`direction`, `ends`).
            fieldKeys.bound += max(0, names - 1) * JSONSpanWriter.maxStringBytes(GestureFragments.maxFastNameBytes)
            keys[detail.shape] = fieldKeys
        }
        self.keys = keys
    }
}

extension GestureKind {
    /// A distinct index below `allCases.count` (declaration order), for `GestureFragments.heads`.
    var ordinal: Int {
        switch self {
        case .press: 0
        case .release: 1
        case .end: 2
        case .tap: 3
        case .doubleTap: 4
        case .singleTapConfirmed: 5
        case .longPress: 6
        case .longPressDrag: 7
        case .repeat: 8
        case .timedPress: 9
        case .drag: 10
        case .swipe: 11
        case .scroll: 12
        case .pinch: 13
        case .rotate: 14
        case .hover: 15
        }
    }
}

extension GesturePhase {
    /// The phase's position in `allCases` (0…3), for `GestureFragments.heads`.
    var ordinal: Int {
        switch self {
        case .began: 0
        case .changed: 1
        case .ended: 2
        case .cancelled: 3
        }
    }
}

extension GestureDetail {
    /// Which case the detail is (0…10), for `GestureFragments.keys`.
    var shape: Int {
        switch self {
        case .pointer: 0
        case .release: 1
        case .end: 2
        case .count: 3
        case .none: 4
        case .duration: 5
        case .motion: 6
        case .scroll: 7
        case .swipe: 8
        case .pinch: 9
        case .rotate: 10
        }
    }

    /// One detail of each shape, to read the field names from.
    static let samples: [GestureDetail] = [
        .pointer(id: 0, pointerType: .touch), .release(id: 0, inside: true, duration: 0),
        .end(reason: .release, duration: 0), .count(1), .none, .duration(0),
        .motion(
            MotionFields(
                startX: 0, startY: 0, dx: 0, dy: 0, ddx: 0, ddy: 0, vx: 0, vy: 0, predictedX: 0, predictedY: 0, predictedDx: 0,
                predictedDy: 0)),
        .scroll(ScrollFields(dx: 0, dy: 0, ddx: 0, ddy: 0, vx: 0, vy: 0)),
        .swipe(SwipeFields(direction: .left, distance: 0, velocity: 0, duration: 0, ends: .scroll)),
        .pinch(scale: 1, velocity: 0), .rotate(angle: 0, velocity: 0),
    ]
}
