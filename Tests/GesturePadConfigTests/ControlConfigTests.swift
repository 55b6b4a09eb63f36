import GestureControl
import GestureEngine
import Testing

@testable import GesturePadConfig

/// The configuration file's `control:` section (docs/control.md).
struct ControlConfigTests {
    private func issues(_ yaml: String) -> [String] {
        do {
            _ = try ConfigFile.parse(yaml: yaml)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    /// Every key sets its setting; what the file leaves out keeps its default.
    @Test func everyKey() throws {
        let config = try ConfigFile.parse(
            yaml: """
                control:
                  backend: uinput
                  speed: 1.5
                  acceleration: flat
                  naturalScroll: false
                  scrollSpeed: 2
                  kineticScrolling: false
                  tapToClick: false
                  tapAndDrag: false
                  dragLock: true
                  dragLockTimeout: 800
                  tapButtons: [left, middle, right]
                  leftHanded: true
                  pinchZoom: false
                  zoomStep: 1.5
                  releaseAfterSilence: 5000
                  swipeKeys:
                    left: Ctrl+Alt+Right
                    up: none
                """)
        let s = config.control
        #expect(config.controlBackend == .uinput)
        #expect(s.speed == 1.5 && config.controlAcceleration == .flat && !s.naturalScroll && s.scrollSpeed == 2)
        #expect(!s.tapToClick && !s.tapAndDrag && s.dragLock && s.dragLockTimeout == 800)
        #expect(s.tapButtons == [.left, .middle, .right] && s.leftHanded && !s.pinchZoom && s.zoomStep == 1.5)
        #expect(s.releaseAfterSilence == 5000 && config.controlKineticScrolling == false)
        #expect(s.swipeKeys[.left] == KeyCombination(modifiers: [.control, .alt], key: .named(.arrowRight)))
        #expect(s.swipeKeys[.up] == nil)
        #expect(s.swipeKeys[.right] == ControlSettings.defaultSwipeKeys[.right])
    }

    /// `kineticScrolling` left out is nil: the backend decides (`BackendKind.defaultKineticScrolling`).
    @Test func kineticScrollingUnsetIsTheBackends() throws {
        #expect(try ConfigFile.parse(yaml: "control:\n  speed: 2\n").controlKineticScrolling == nil)
        #expect(try ConfigFile.parse(yaml: "control:\n  kineticScrolling: true\n").controlKineticScrolling == true)
        #expect(issues("control:\n  kineticScrolling: yes please\n").first?.hasPrefix("line 2: control.kineticScrolling must be true or false") == true)
    }

    /// Wrong values are reported with their line, and unknown keys get a suggestion.
    @Test func badValues() {
        let found = issues(
            """
            control:
              backend: wayland
              speed: -1
              tapButtons: [left, side]
              zoomStep: 1
              swipeKeys:
                left: Hyper+x
                sideways: Tab
              dragLok: true
            """)
        #expect(found.count == 7)
        #expect(found[0] == "line 2: control.backend must be one of auto, x11, uinput, touchpad, portal, wlroots, off, not the text 'wayland'")
        #expect(found[1] == "line 3: control.speed must be from 0.1 to 10, not -1.0")
        #expect(found.contains { $0.hasPrefix("line 4: control.tapButtons must be one of left, right, middle") })
        #expect(found.contains { $0 == "line 5: control.zoomStep must be > 1, not 1.0" })
        #expect(found.contains { $0.hasPrefix("line 7: control.swipeKeys.left: 'Hyper+x' is not a key combination") })
        #expect(found.contains { $0.hasPrefix("line 8: unknown key 'sideways' in control.swipeKeys") })
        #expect(found.contains { $0.hasPrefix("line 9: unknown key 'dragLok' in control (did you mean 'dragLock'?)") })
    }
}
