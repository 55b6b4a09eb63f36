import GestureControl
import Testing

@testable import GesturePadHost

/// The desktop's touchpad settings as each desktop writes them (`TouchpadSettingsSource`):
/// which source a session has, and each answer read — only the GesturePad touchpad's group in
/// KDE's file, only its input in sway's list.
@Suite struct TouchpadSettingsSourceTests {
    @Test func theSessionNamesItsSource() {
        #expect(TouchpadSettingsSource.of(environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) == .gnome)
        #expect(
            TouchpadSettingsSource.of(environment: ["XDG_CURRENT_DESKTOP": "KDE", "HOME": "/home/a"])
                == .kde(configFile: "/home/a/.config/kcminputrc"))
        #expect(
            TouchpadSettingsSource.of(environment: ["XDG_CURRENT_DESKTOP": "KDE", "XDG_CONFIG_HOME": "/c"])
                == .kde(configFile: "/c/kcminputrc"))
        #expect(TouchpadSettingsSource.of(environment: ["SWAYSOCK": "/run/sway.sock", "XDG_CURRENT_DESKTOP": "GNOME"]) == .sway)
        #expect(TouchpadSettingsSource.of(environment: ["XDG_CURRENT_DESKTOP": "XFCE"]) == nil)
        #expect(TouchpadSettingsSource.of(environment: [:]) == nil)
    }

    @Test func gnomesListIsRead() {
        let text = """
            org.gnome.desktop.peripherals.touchpad natural-scroll true
            org.gnome.desktop.peripherals.touchpad speed -0.5
            org.gnome.desktop.peripherals.touchpad tap-and-drag true
            org.gnome.desktop.peripherals.touchpad tap-to-click false
            org.gnome.desktop.peripherals.touchpad disable-while-typing true
            """
        let settings = TouchpadSettingsSource.gnome(text)
        #expect(settings.desktop == "GNOME" && settings.tapToClick == false && settings.naturalScrolling == true)
        #expect(settings.speed == -0.5 && settings.disableWhileTyping == true)
        #expect(TouchpadSettingsSource.gnome("").tapToClick == nil)
    }

    @Test func kdesGroupOfTheDeviceOnly() {
        let text = """
            [Libinput][1][1][Other touchpad]
            TapToClick=false
            NaturalScroll=true

            [Libinput][7504][24866][GesturePad touchpad]
              TapToClick=true
            PointerAcceleration=0.3

            [Mouse]
            TapToClick=false
            """
        let settings = TouchpadSettingsSource.kde(text, device: "GesturePad touchpad")
        #expect(settings.tapToClick == true && settings.speed == 0.3)
        #expect(settings.naturalScrolling == nil, "another device's setting is not the GesturePad touchpad's")
    }

    @Test func swaysInputOfTheDeviceOnly() throws {
        let json = #"""
            [{"identifier":"1:1:kbd","name":"kbd","type":"keyboard"},
             {"identifier":"7504:24866:GesturePad_touchpad","name":"GesturePad touchpad","type":"touchpad",
              "libinput":{"send_events":"enabled","tap":"enabled","natural_scroll":"disabled","accel_speed":0.1,"dwt":"enabled"}}]
            """#
        let settings = try #require(TouchpadSettingsSource.sway(Array(json.utf8), device: "GesturePad touchpad"))
        #expect(settings.tapToClick == true && settings.naturalScrolling == false && settings.speed == 0.1)
        #expect(settings.disableWhileTyping == true && settings.desktop == "sway")
        #expect(TouchpadSettingsSource.sway(Array(json.utf8), device: "missing") == nil)
        #expect(TouchpadSettingsSource.sway(Array("not json".utf8), device: "GesturePad touchpad") == nil)
    }
}
