import GestureProtocol
import Testing

@testable import GesturePadServer

@Suite struct ServerURLsTests {
    let interfaces = [
        InterfaceAddress(interface: "lo", address: "127.0.0.1", family: .ipv4, isLoopback: true),
        InterfaceAddress(interface: "lo", address: "::1", family: .ipv6, isLoopback: true),
        InterfaceAddress(interface: "eth0", address: "fe80::1", family: .ipv6, isLoopback: false),
        InterfaceAddress(interface: "eth0", address: "fd00::2", family: .ipv6, isLoopback: false),
        InterfaceAddress(interface: "eth0", address: "192.168.1.5", family: .ipv4, isLoopback: false),
        InterfaceAddress(interface: "wlan0", address: "10.0.0.7", family: .ipv4, isLoopback: false),
    ]

    /// On all interfaces: LAN IPv4 first, then global IPv6, then loopback; no link-local.
    @Test func allInterfacesInUsefulOrder() {
        let urls = ServerURLs.urls(host: nil, port: 8765, token: "tok", interfaces: interfaces)
        #expect(
            urls == [
                "http://192.168.1.5:8765/#token=tok", "http://10.0.0.7:8765/#token=tok",
                "http://[fd00::2]:8765/#token=tok", "http://127.0.0.1:8765/#token=tok",
                "http://[::1]:8765/#token=tok",
            ])
    }

    /// 0.0.0.0 listens on IPv4 only, so no IPv6 URL is printed.
    @Test func ipv4WildcardSkipsIPv6() {
        let urls = ServerURLs.urls(host: "0.0.0.0", port: 1, token: nil, interfaces: interfaces)
        #expect(urls == ["http://192.168.1.5:1/", "http://10.0.0.7:1/", "http://127.0.0.1:1/"])
    }

    /// A specific address is printed as given (IPv6 in brackets); an interface name as its addresses.
    @Test func specificHostOrInterface() {
        #expect(ServerURLs.urls(host: "::1", port: 9, token: "t", interfaces: interfaces) == ["http://[::1]:9/#token=t"])
        #expect(
            ServerURLs.urls(host: "eth0", port: 9, token: nil, interfaces: interfaces)
                == ["http://192.168.1.5:9/", "http://[fd00::2]:9/"])
    }

    /// With no interface known, loopback is still printed.
    @Test func fallsBackToLoopback() {
        #expect(ServerURLs.urls(host: nil, port: 5, token: nil, interfaces: []) == ["http://127.0.0.1:5/"])
    }

    /// Link-local detection covers fe80::/10 and 169.254/16.
    @Test func linkLocal() {
        #expect(InterfaceAddress(interface: "x", address: "FEBF::1", family: .ipv6, isLoopback: false).isLinkLocal)
        #expect(InterfaceAddress(interface: "x", address: "169.254.3.4", family: .ipv4, isLoopback: false).isLinkLocal)
        #expect(!InterfaceAddress(interface: "x", address: "fec0::1", family: .ipv6, isLoopback: false).isLinkLocal)
    }
}

@Suite struct QRTests {
    /// libqrencode gives a square symbol whose corners hold the dark finder patterns.
    @Test func encodesWithFinderPatterns() throws {
        let matrix = try #require(TerminalQRCode.matrix(for: "http://192.168.1.5:8765/#token=0123456789abcdef0123456789abcdef"))
        #expect(matrix.width >= 21 && (matrix.width - 17) % 4 == 0)
        for (x, y) in [(0, 0), (matrix.width - 1, 0), (0, matrix.width - 1), (6, 6), (3, 3)] {
            #expect(matrix.isDark(x: x, y: y))
        }
        #expect(!matrix.isDark(x: 1, y: 1))  // the finder's light ring
        #expect(!matrix.isDark(x: -1, y: 0))  // quiet zone
    }

    /// Two module rows per line, quiet zone around, top/bottom halves drawn right.
    @Test func rendersHalfBlocks() {
        // 2×2: dark, light / light, dark
        let matrix = QRMatrix(width: 2, modules: [true, false, false, true])
        let lines = QRTerminalRenderer.render(matrix, quietZone: 1, ansi: true)
        #expect(lines.count == 2)
        let first = lines[0].replacing("\u{1B}[30;47m", with: "").replacing("\u{1B}[0m", with: "")
        // Row pair (-1, 0): quiet above; row 0 = dark, light.
        #expect(first == " \u{2584}  ")
        let plain = QRTerminalRenderer.render(matrix, quietZone: 1, ansi: false)
        // Without colour the light modules are the ink.
        #expect(plain[0] == "\u{2588}\u{2580}\u{2588}\u{2588}")
    }

    /// A malformed matrix renders nothing.
    @Test func emptyMatrix() {
        #expect(QRTerminalRenderer.render(QRMatrix(width: 3, modules: [true]), ansi: true).isEmpty)
    }
}

@Suite struct PublicDirectoryLocatorTests {
    /// The working directory's Public/ wins; else the executable's ancestors are searched.
    @Test func searchOrder() {
        let files: Set<String> = ["/repo/Public/index.html", "/cwd/Public/index.html"]
        #expect(
            PublicDirectoryLocator.locate(
                workingDirectory: "/cwd", executablePath: "/repo/.build/debug/gesturepad", isFile: files.contains)
                == "/cwd/Public")
        #expect(
            PublicDirectoryLocator.locate(
                workingDirectory: "/elsewhere", executablePath: "/repo/.build/debug/gesturepad",
                isFile: files.contains) == "/repo/Public")
    }

    /// An installed binary serves the page installed beside it (`<prefix>/share/gesturepad/Public`),
    /// whatever the working directory and the prefix, even when the working directory has a Public/.
    @Test func installedPageFirst() {
        for prefix in ["/usr", "/usr/local", "/home/me/.local", "/tmp/x y"] {
            let files: Set<String> = ["\(prefix)/share/gesturepad/Public/index.html", "/cwd/Public/index.html"]
            #expect(
                PublicDirectoryLocator.locate(
                    workingDirectory: "/cwd", executablePath: "\(prefix)/bin/gesturepad", isFile: files.contains)
                    == "\(prefix)/share/gesturepad/Public")
        }
        let candidates = PublicDirectoryLocator.candidates(workingDirectory: "/", executablePath: "/usr/bin/gesturepad")
        #expect(candidates.first == "/usr/share/gesturepad/Public")
        #expect(candidates.contains("/Public"))
    }

    /// Paths are normalized lexically: `.` and `..` segments and doubled slashes go.
    @Test func normalization() {
        #expect(PublicDirectoryLocator.normalize("/a/./b//c/../d") == "/a/b/d")
        #expect(PublicDirectoryLocator.normalize("/..") == "/")
        #expect(PublicDirectoryLocator.normalize("a/../..") == ".")
    }

    /// A folder without index.html does not count; nothing found is nil.
    @Test func requiresIndex() {
        #expect(
            PublicDirectoryLocator.locate(workingDirectory: "/a", executablePath: "/b/c/gesturepad", isFile: { _ in false })
                == nil)
    }
}

@Suite struct StartupBannerTests {
    /// The banner lists every URL, the QR code and the no-auth warning when it applies.
    @Test func bannerContents() {
        let lines = StartupBanner.lines(
            urls: ["http://a:1/#token=t", "http://b:1/#token=t"], port: 1, authenticated: true,
            publicDirectory: "/p", tokenNote: "The token is remembered.", qrLines: ["QR"])
        #expect(lines.contains("  http://a:1/#token=t") && lines.contains("  http://b:1/#token=t"))
        #expect(lines.contains("The token is remembered."))
        #expect(lines.contains("QR"))
        #expect(!lines.joined().contains("WARNING"))
        let open = StartupBanner.lines(urls: ["http://a:1/"], port: 1, authenticated: false, publicDirectory: "/p", qrLines: [])
        #expect(open.joined().contains("WARNING"))
    }

    /// Notes (configuration file, recording) come before the last line; `gesturepad url`
    /// prints the banner's own address block.
    @Test func notesAndAddressBlock() {
        let lines = StartupBanner.lines(
            urls: ["http://a:1/#token=t"], port: 1, authenticated: true, publicDirectory: "/p",
            notes: ["Configuration: /c.yaml (--config)."], qrLines: ["QR"])
        #expect(lines.suffix(2) == ["Configuration: /c.yaml (--config).", "Press Ctrl-C to stop."])
        let block = StartupBanner.addressLines(urls: ["http://a:1/#token=t"], qrLines: ["QR"])
        #expect(
            block == [
                "Open this address on your phone (same network):", "  http://a:1/#token=t", "",
                "Or scan this QR code (http://a:1/#token=t):", "QR", "",
                "To watch the gestures on another screen, open the observer view:", "  http://a:1/watch.html#token=t",
            ])
        #expect(lines.joined(separator: "\n").contains(block.joined(separator: "\n")))
    }
}

@Suite struct BannerAddressTests {
    /// The observer's and `/trust`'s addresses are the first address with another path; the
    /// token stays for the observer and is left out of `/trust`.
    @Test func pathsReplaced() {
        #expect(ServerURLs.replacingPath(of: "http://a:1/#token=t", with: "/watch.html") == "http://a:1/watch.html#token=t")
        #expect(
            ServerURLs.replacingPath(of: "https://[::1]:1/#token=t", with: "/trust", keepFragment: false)
                == "https://[::1]:1/trust")
        #expect(ServerURLs.replacingPath(of: "http://a:1", with: "/watch.html") == "http://a:1/watch.html")
        #expect(ServerURLs.replacingPath(of: "not a url", with: "/x") == "not a url")
    }

    /// With `--tls` the banner prints the `/trust` address in full, its QR code and the fingerprint.
    @Test func trustBlock() {
        let trust = StartupBanner.trustLines(url: "https://a:1/trust", qrLines: ["QR"], fingerprint: "AB:CD")
        let lines = StartupBanner.lines(
            urls: ["https://a:1/#token=t"], port: 1, authenticated: true, publicDirectory: "/p", trust: trust, qrLines: [])
        #expect(lines.contains("  https://a:1/trust") && lines.contains("QR") && lines.contains("  AB:CD"))
    }

    /// The trust page's fingerprint may break after a byte's colon, never inside a byte.
    @Test func fingerprintBreaksBetweenBytes() {
        #expect(TrustPage.fingerprintHTML("96:01:B1") == "<span>96:</span><wbr><span>01:</span><wbr><span>B1</span>")
    }

    /// The run's host name is the part before the first dot, an address stays whole.
    @Test func shortHostName() {
        #expect(ServerIdentity.shortHostName("desk.lan") == "desk")
        #expect(ServerIdentity.shortHostName("desk") == "desk")
        #expect(ServerIdentity.shortHostName("192.168.1.5") == "192.168.1.5")
    }
}

@Suite struct HostResolverTests {
    /// IP literals (bracketed or not) and interface names are kept; localhost resolves to a number.
    @Test func bindableHosts() {
        let lo = [InterfaceAddress(interface: "lo", address: "127.0.0.1", family: .ipv4, isLoopback: true)]
        #expect(HostResolver.bindable("192.168.1.5", interfaces: []) == "192.168.1.5")
        #expect(HostResolver.bindable("[::1]", interfaces: []) == "::1")
        #expect(HostResolver.bindable("lo", interfaces: lo) == "lo")
        #expect(HostResolver.bindable("localhost", interfaces: lo).map(HostResolver.isIPLiteral) == true)
        #expect(HostResolver.bindable("no-such-host.invalid", interfaces: lo) == nil)
    }
}
