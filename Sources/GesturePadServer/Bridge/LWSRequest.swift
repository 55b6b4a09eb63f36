import CLibWebSockets

/// What lws read of a request: its headers, its query arguments and the peer's address, each
/// copied out of lws's buffers (on the service thread, while lws holds the request).
enum LWSRequest {
    /// A request header, or `nil` when absent.
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0, length < 8_192 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The value of query argument `name` (`?name=value`), or `nil` when absent.
    static func queryArgument(_ wsi: OpaquePointer, name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let count = Int32(buffer.count)
        return buffer.withUnsafeMutableBufferPointer { storage -> String? in
            guard let base = storage.baseAddress,
                let value = lws_get_urlarg_by_name(wsi, name + "=", base, count)
            else { return nil }
            return String(cString: value)
        }
    }

    /// Every query argument as lws decoded it (`name=value`), in order.
    static func queryArguments(_ wsi: OpaquePointer) -> [String] {
        var arguments: [String] = []
        var index: Int32 = 0
        while index < 64 {
            let length = Int(lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index))
            guard length > 0, length < 8_192 else { break }
            var buffer = [CChar](repeating: 0, count: length + 1)
            let copied = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index)
            guard copied >= 0 else { break }
            arguments.append(String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
            index += 1
        }
        return arguments
    }

    static func peer(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = buffer.count
        return buffer.withUnsafeMutableBufferPointer { storage -> String in
            guard let base = storage.baseAddress, lws_get_peer_simple(wsi, base, count) != nil else { return "?" }
            return String(cString: base)
        }
    }

    /// A custom request header (`name` lower-case, with its colon), or nil.
    static func customHeader(_ wsi: OpaquePointer, _ name: String) -> String? {
        let nameLength = Int32(name.utf8.count)
        let length = Int(lws_hdr_custom_length(wsi, name, nameLength))
        guard length > 0, length < 1_024 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), name, nameLength)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
