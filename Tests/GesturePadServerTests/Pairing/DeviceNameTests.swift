import Testing

@testable import GesturePadServer

@Suite struct DeviceNameTests {
    static let pixel =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36"
    static let reduced =
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
    static let iphone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
    static let firefoxAndroid = "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0"
    static let samsung =
        "Mozilla/5.0 (Linux; Android 13; SM-S918B Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36"
    static let linuxChrome =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"

    /// The device and the browser, from the user agent: model, phone kind, or system.
    @Test func fromUserAgents() {
        #expect(DeviceName.make(userAgent: Self.pixel, model: nil) == "Pixel 8 · Chrome")
        #expect(DeviceName.make(userAgent: Self.iphone, model: nil) == "iPhone · Safari")
        #expect(DeviceName.make(userAgent: Self.firefoxAndroid, model: nil) == "Android phone · Firefox")
        #expect(DeviceName.make(userAgent: Self.samsung, model: nil) == "SM-S918B · Samsung Internet")
        #expect(DeviceName.make(userAgent: Self.linuxChrome, model: nil) == "Linux · Chrome")
        #expect(DeviceName.make(userAgent: nil, model: nil) == "Device · Browser")
    }

    /// A reduced user agent ("K") names no model; the page's hint does.
    @Test func modelHintWins() {
        #expect(DeviceName.make(userAgent: Self.reduced, model: nil) == "Android phone · Chrome")
        #expect(DeviceName.make(userAgent: Self.reduced, model: "Pixel 8") == "Pixel 8 · Chrome")
        #expect(DeviceName.make(userAgent: Self.reduced, model: "  \u{7}  ") == "Android phone · Chrome")
    }

    /// Names are cleaned: no control characters, one space between words, at most 60 characters.
    @Test func sanitizes() {
        #expect(DeviceName.sanitized("  Pixel\n\t8\u{1b}[31m  ") == "Pixel 8[31m")
        #expect(DeviceName.sanitized("\u{202e}evil") == "evil")
        #expect(DeviceName.sanitized(" \n ") == nil)
        #expect(DeviceName.sanitized(String(repeating: "x", count: 80))?.count == DeviceName.maxLength)
    }
}
