import GestureControl
import GestureProtocol
import Testing

@testable import GesturePadServer

/// The desktop page's touchpad settings: asked of the desktop only on a request, at most once
/// per `freshFor`, never twice at once; written into the page's state.
@Suite struct TouchpadSettingsWatchTests {
    @Test func aReadingStandsForItsTime() {
        let fresh = TouchpadSettingsWatch.freshFor
        #expect(TouchpadSettingsWatch.shouldRead(readAt: nil, reading: false, now: 0))
        #expect(!TouchpadSettingsWatch.shouldRead(readAt: nil, reading: true, now: 0))
        #expect(!TouchpadSettingsWatch.shouldRead(readAt: 1_000, reading: false, now: 1_000 + fresh - 1))
        #expect(TouchpadSettingsWatch.shouldRead(readAt: 1_000, reading: false, now: 1_000 + fresh))
        #expect(!TouchpadSettingsWatch.shouldRead(readAt: 1_000, reading: true, now: 1_000 + fresh * 3))
    }

    @Test func theStateCarriesTheSettingsAndWhetherTheyApply() throws {
        let settings = DesktopTouchpadSettings(
            desktop: "GNOME", tapToClick: false, naturalScrolling: true, speed: 0.25, changeWhere: "Settings")
        let state = DesktopState(
            pairingOpen: false, secondsLeft: nil, confirm: false, link: "", qrRows: [], devices: [], connected: [],
            control: .active(backend: "touchpad"), touchpad: settings,
            touchpadApplies: true)
        let text = String(decoding: state.json, as: UTF8.self)
        #expect(
            text.hasSuffix(
                #","touchpad":{"desktop":"GNOME","applies":true,"tapToClick":false,"naturalScrolling":true,"speed":0.25,"change":"Settings"}}"#
            ), "\(text)")
        var without = state
        without.touchpad = nil
        #expect(!String(decoding: without.json, as: UTF8.self).contains("touchpad\":{"))
    }
}
