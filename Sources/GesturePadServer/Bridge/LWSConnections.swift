import CLibWebSockets
import GestureProtocol

/// The open WebSocket connections as lws knows them, on the service thread: each one's id (its
/// session id on the wire: 1, 2, …) and lws handle, kept from `ESTABLISHED` to `CLOSED`, and
/// the buffers one write and one receive reuse. `WebServer` carries the hub's transport actions
/// out through it; once the context is being destroyed it hands out no handle.
final class LWSConnections {
    private var handles: [Int: OpaquePointer] = [:]
    private var nextID = 1
    /// The frames of one write (`WebSocketFraming`).
    private var scratch: [UInt8] = []
    /// The chunk of one receive callback, handed to the hub as a slice.
    private var inputScratch: [UInt8] = []
    /// Set while `lws_context_destroy` runs: the transport then does nothing.
    private(set) var destroying = false

    init() {
        scratch.reserveCapacity(4096)
        inputScratch.reserveCapacity(4096)
    }

    var count: Int { handles.count }
    var isEmpty: Bool { handles.isEmpty }

    /// `wsi` was established: it gets the next id, kept in its slot.
    func open(_ wsi: OpaquePointer, slot: UnsafeMutablePointer<gp_connection_slot>) -> Int {
        let id = nextID
        nextID += 1
        slot.pointee.wsi = wsi
        slot.pointee.connection_id = UInt64(id)
        handles[id] = wsi
        return id
    }

    /// The connection of `slot` closed: its timer is cancelled and its id returned (nil: it
    /// never was established, or closed already).
    func close(slot: UnsafeMutablePointer<gp_connection_slot>?) -> Int? {
        guard let slot, let id = Self.id(of: slot) else { return nil }
        lws_sul_cancel(gp_slot_timer(slot))
        slot.pointee.connection_id = 0
        handles.removeValue(forKey: id)
        return id
    }

    /// From here on no handle is handed out: lws is tearing every connection down.
    func beginDestroying() { destroying = true }

    /// The id of the connection `slot` belongs to, while it is open.
    static func id(of slot: UnsafeMutablePointer<gp_connection_slot>?) -> Int? {
        guard let slot, slot.pointee.connection_id != 0 else { return nil }
        return Int(truncatingIfNeeded: slot.pointee.connection_id)
    }

    /// The lws handle of connection `id`, unless the context is being destroyed, the
    /// connection is gone, or it is `current` and its callback already failed (`result` -1).
    func handle(_ id: Int, unlessFailed result: Int32, _ current: Int?) -> OpaquePointer? {
        guard !destroying, result == 0 || id != current else { return nil }
        return handles[id]
    }

    /// The per-connection block of connection `id` (its timer), while it is open.
    func slot(of id: Int) -> UnsafeMutablePointer<gp_connection_slot>? {
        guard !destroying, let wsi = handles[id] else { return nil }
        return lws_wsi_user(wsi)?.assumingMemoryBound(to: gp_connection_slot.self)
    }

    /// Writes `batch` as WebSocket frames; false when lws refused the write.
    func write(_ batch: OutboundBatch, to wsi: OpaquePointer) -> Bool {
        WebSocketFraming.write(batch, to: wsi, using: &scratch)
    }

    /// The received bytes, copied into the reused buffer (lws's own is gone after the callback).
    func chunk(_ input: UnsafeMutableRawPointer?, length: Int) -> ArraySlice<UInt8> {
        inputScratch.removeAll(keepingCapacity: true)
        if let input, length > 0 {
            inputScratch.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        return inputScratch[...]
    }

    /// Sets the Close frame lws sends for `wsi`: `code`, and `reason` cut to 120 bytes.
    static func setCloseReason(_ wsi: OpaquePointer, code: CloseCode, reason: String) {
        var bytes = Array(reason.utf8.prefix(120))
        bytes.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(wsi, lws_close_status(UInt32(code.rawValue)), buffer.baseAddress, buffer.count)
        }
    }
}
