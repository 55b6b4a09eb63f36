import CLibWebSockets

/// Server-to-client WebSocket framing (RFC 6455 §5.2), done by the server itself so that all
/// the messages of one writable callback go out in one `send()` through `LWS_WRITE_RAW`.
///
/// This is only valid because of how the server sets lws up: no WebSocket extension
/// (permessage-deflate or any other) is ever negotiated — neither the context nor the vhost
/// lists one (`requireNoExtensions`, checked at start) — so every frame has its RSV bits zero
/// and its payload goes out as it is, and lws, which frames nothing written raw, adds nothing
/// either. An extension would need lws's own framing (`LWS_WRITE_TEXT`, one frame per write).
enum WebSocketFraming {
    /// Appends one complete text frame carrying `payload`: FIN + text opcode (RSV bits zero),
    /// unmasked as a server sends, the length in 7, 16 or 64 bits.
    static func appendTextFrame(_ payload: ArraySlice<UInt8>, to out: inout [UInt8]) {
        let length = payload.count
        out.append(0x81)
        if length < 126 {
            out.append(UInt8(length))
        } else if length < 65_536 {
            out.append(126)
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: length >> shift))
            }
        }
        out.append(contentsOf: payload)
    }

    /// Replaces `out` with every message of `batch` as a text frame, in order.
    static func frame(_ batch: OutboundBatch, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        for index in 0..<batch.count { appendTextFrame(batch[index], to: &out) }
    }

    /// Writes `batch` on `wsi` as raw bytes, framed in `scratch` (reused). `LWS_WRITE_RAW`
    /// skips lws's own framing on a ws connection, still restarts the keep-alive timer, and
    /// keeps what a partial send left for the next writable callback. Returns false when lws
    /// could not take it all (the connection is then to be closed).
    static func write(_ batch: OutboundBatch, to wsi: OpaquePointer, using scratch: inout [UInt8]) -> Bool {
        frame(batch, into: &scratch)
        let length = scratch.count
        let written = scratch.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return lws_write(wsi, base.assumingMemoryBound(to: UInt8.self), length, CLWS_WRITE_RAW)
        }
        return written >= Int32(clamping: length)
    }

    /// Stops the server from starting with an extension configured: the framing above would
    /// then be wrong (an extension may set RSV bits and transform the payload).
    static func requireNoExtensions(_ info: lws_context_creation_info) {
        precondition(info.extensions == nil, "the server frames WebSocket messages itself: no extension may be offered")
    }
}
