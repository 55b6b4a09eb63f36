/// `/trust`: how to make a phone trust the local certificate authority, in three steps for
/// Android and for iOS, with the CA's fingerprint to compare with the one the terminal printed.
/// Needs no token and shows nothing secret (the CA certificate is public; its key never leaves
/// the computer).
enum TrustPage {
    /// The fingerprint with a line break allowed after each byte's colon and nowhere else:
    /// each byte is a `<span>` that never wraps (`96:` never becomes `96:0` / `1:B1`).
    static func fingerprintHTML(_ fingerprint: String) -> String {
        let bytes = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.enumerated().map { i, byte in
            "<span>\(byte)\(i < bytes.count - 1 ? ":" : "")</span>"
        }.joined(separator: "<wbr>")
    }

    static func html(fingerprint: String?) -> String {
        let body: String
        if let fingerprint {
            body = """
                <p>This computer's GesturePad made its own small certificate authority. Trust it once on your phone and
                the touchpad opens over HTTPS with no warning, keeps the screen awake and can be installed as an app.</p>
                <p class="fp">SHA-256 fingerprint of the certificate:<br><code id="fingerprint">\(fingerprintHTML(fingerprint))</code><br>
                It must be the same as the one the terminal printed.</p>
                <h2>Android</h2>
                <ol>
                <li><a href="/ca.crt" download="gesturepad-ca.crt">Download the certificate</a>.</li>
                <li>Open Settings → Security (or "Security &amp; privacy") → More security settings → Encryption &amp; credentials → Install a certificate → CA certificate, and pick <b>gesturepad-ca.crt</b>.</li>
                <li>Open the touchpad link again: the address bar shows a lock.</li>
                </ol>
                <h2>iPhone and iPad</h2>
                <ol>
                <li>In Safari, <a href="/ca.crt">download the certificate</a> and allow the configuration profile.</li>
                <li>Settings → General → VPN &amp; Device Management → "GesturePad local CA" → Install.</li>
                <li>Settings → General → About → Certificate Trust Settings → switch on full trust for it, then open the touchpad link again.</li>
                </ol>
                <p class="fp"><a href="/">Open the touchpad</a> once the certificate is trusted. A phone paired before
                this computer used HTTPS keeps its pairing: its page moves to the secure address by itself.</p>
                <p>To stop trusting it, remove the certificate in the same places. Deleting the state folder on the
                computer makes a new authority, which you would trust again.</p>
                """
        } else {
            body = """
                <p>This server uses a certificate you gave it (<code>--tls-cert</code>), not GesturePad's own certificate
                authority: there is nothing to install here. If your phone warns about the certificate, trust the
                authority that issued it.</p>
                """
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Trust GesturePad on your phone</title>
            <meta name="theme-color" content="#0d1117">
            <link rel="icon" href="/icon.svg" type="image/svg+xml">
            <style>
            :root { color-scheme: dark; }
            body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 40em;
                   margin: 0 auto; padding: 1.5em 1em 3em; color: #e6edf3; background: #0d1117; }
            h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; color: #e6edf3; }
            li { margin: .35em 0; } b { color: #fff; }
            .fp { background: rgba(22, 27, 34, .9); border: 1px solid #30363d; border-radius: 12px; padding: .75em 1em; }
            code { font: .9em/1.6 ui-monospace, "SFMono-Regular", Menlo, monospace; color: #e6edf3; }
            code span { white-space: nowrap; }
            a { color: #58a6ff; }
            </style></head><body>
            <h1>Trust GesturePad on your phone</h1>
            \(body)
            </body></html>
            """
    }
}
