/// `/trust`: how to make a phone trust the local certificate authority, in three steps for
/// Android and for iOS, with the CA's fingerprint to compare with the one the terminal printed.
/// Needs no token and shows nothing secret (the CA certificate is public; its key never leaves
/// the computer).
enum TrustPage {
    static func html(fingerprint: String?) -> String {
        let body: String
        if let fingerprint {
            body = """
                <p>This computer's GesturePad made its own small certificate authority. Trust it once on your phone and
                the touchpad opens over HTTPS with no warning, keeps the screen awake and can be installed as an app.</p>
                <p class="fp">SHA-256 fingerprint of the certificate:<br><code>\(fingerprint)</code><br>
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
            <style>
            body { font: 16px/1.5 system-ui, sans-serif; max-width: 40em; margin: 1.5em auto; padding: 0 1em;
                   color: #111; background: #fff; }
            h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
            code { font-size: 0.85em; word-break: break-all; } .fp { background: #f2f2f2; padding: 0.75em; }
            a { color: #0645ad; }
            </style></head><body>
            <h1>Trust GesturePad on your phone</h1>
            \(body)
            </body></html>
            """
    }
}
