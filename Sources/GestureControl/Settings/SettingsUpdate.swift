/// The settings a page may change for its own connection (the `settings` message, docs/
/// protocol.md): each field is optional; what is absent stays as it is.
public struct SettingsUpdate: Sendable, Hashable {
    public var speed: Double?
    public var acceleration: AccelerationProfile?
    public var naturalScroll: Bool?
    public var scrollSpeed: Double?
    public var tapToClick: Bool?
    public var tapAndDrag: Bool?
    public var dragLock: Bool?
    public var leftHanded: Bool?
    public var kineticScrolling: Bool?

    public init(
        speed: Double? = nil, acceleration: AccelerationProfile? = nil, naturalScroll: Bool? = nil,
        scrollSpeed: Double? = nil, tapToClick: Bool? = nil, tapAndDrag: Bool? = nil, dragLock: Bool? = nil,
        leftHanded: Bool? = nil, kineticScrolling: Bool? = nil
    ) {
        self.speed = speed
        self.acceleration = acceleration
        self.naturalScroll = naturalScroll
        self.scrollSpeed = scrollSpeed
        self.tapToClick = tapToClick
        self.tapAndDrag = tapAndDrag
        self.dragLock = dragLock
        self.leftHanded = leftHanded
        self.kineticScrolling = kineticScrolling
    }

    /// `settings` with this update's fields applied.
    public func applied(to settings: ControlSettings) -> ControlSettings {
        var s = settings
        if let speed { s.speed = speed }
        if let acceleration { s.acceleration = acceleration }
        if let naturalScroll { s.naturalScroll = naturalScroll }
        if let scrollSpeed { s.scrollSpeed = scrollSpeed }
        if let tapToClick { s.tapToClick = tapToClick }
        if let tapAndDrag { s.tapAndDrag = tapAndDrag }
        if let dragLock { s.dragLock = dragLock }
        if let leftHanded { s.leftHanded = leftHanded }
        if let kineticScrolling { s.kineticScrolling = kineticScrolling }
        return s
    }
}
