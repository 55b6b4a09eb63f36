/// Which request paths the file mount may serve: folders (their `index.html`) and files
/// whose extension has a known content type; never hidden files or folders (`.git`, `.env`).
/// Everything else is answered 404 before lws looks at the disk (lws itself would answer 415
/// for an unknown type and could reveal that such a file exists).
public enum StaticFilePolicy {
    /// The extensions served, with their content types.
    public static let contentTypes: [(suffix: String, type: String)] = [
        (".html", "text/html; charset=utf-8"), (".js", "text/javascript; charset=utf-8"),
        (".mjs", "text/javascript; charset=utf-8"), (".css", "text/css; charset=utf-8"),
        (".svg", "image/svg+xml"), (".json", "application/json"),
        (".webmanifest", "application/manifest+json"), (".png", "image/png"),
        (".ico", "image/x-icon"), (".txt", "text/plain; charset=utf-8"),
        (".map", "application/json"), (".wasm", "application/wasm"), (".woff2", "font/woff2"),
        (".jpg", "image/jpeg"), (".webp", "image/webp"),
    ]

    /// True when the mount may try to serve `path` (the request path, without its query).
    public static func isServable(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0.hasPrefix(".") || $0.contains("\\") || $0.contains("%") }) {
            return false
        }
        if path.hasSuffix("/") { return true }
        guard let last = segments.last, let dot = last.lastIndex(of: ".") else { return false }
        let suffix = last[dot...].lowercased()
        return contentTypes.contains { $0.suffix == suffix }
    }
}
