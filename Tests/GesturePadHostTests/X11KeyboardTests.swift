import GestureControl
import Testing

@testable import GesturePadHost

@Suite struct X11KeyboardTests {
    private func typing(_ text: String, on keyboard: inout X11Keyboard) -> [X11KeyStep] {
        var steps: [X11KeyStep] = []
        keyboard.type(text, into: &steps)
        return steps
    }

    private func key(_ key: HostKey, _ state: PressState, on keyboard: inout X11Keyboard) -> [X11KeyStep] {
        var steps: [X11KeyStep] = []
        keyboard.key(key, state, into: &steps)
        return steps
    }

    /// Column 0 is pressed as it is; column 1 with Shift around it.
    @Test func shiftAroundColumnOne() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        #expect(
            typing("aA!", on: &keyboard) == [
                .press(38), .release(38),
                .press(50), .press(38), .release(38), .release(50),
                .press(50), .press(10), .release(10), .release(50),
            ])
    }

    /// Newline and tab in text are Return and Tab; a carriage return types nothing.
    @Test func newlineAndTab() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        #expect(typing("\r\n\t", on: &keyboard) == [.press(36), .release(36), .press(23), .release(23)])
    }

    /// A character the layout lacks is bound to a spare (the highest first) and then pressed;
    /// typed again, it needs no new binding.
    @Test func missingCharacterUsesASpare() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        #expect(keyboard.spareKeycodes == [201, 200, 8])
        #expect(typing("é", on: &keyboard) == [.bind(201, 0xE9), .press(201), .release(201)])
        #expect(typing("éa", on: &keyboard) == [.press(201), .release(201), .press(38), .release(38)])
    }

    /// With every spare in use, the least recently used is rebound, after a sync that lets
    /// the server deliver the key events typed with the old binding.
    @Test func spareReuseSyncsFirst() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.make(free: [200, 201]))
        let first = typing("中文", on: &keyboard)
        #expect(
            first == [.bind(201, 0x0100_4E2D), .press(201), .release(201), .bind(200, 0x0100_6587), .press(200), .release(200)])
        // 中 was used longest ago: its spare goes to 字.
        #expect(typing("字", on: &keyboard) == [.sync, .bind(201, 0x0100_5B57), .press(201), .release(201)])
        // 文 is still bound; 中 takes the spare used longest ago, 字's.
        #expect(
            typing("文中", on: &keyboard) == [
                .press(200), .release(200), .sync, .bind(201, 0x0100_4E2D), .press(201), .release(201),
            ])
    }

    /// A spare held down by a key action is never rebound; with none left, the character is skipped.
    @Test func heldSpareIsNotRebound() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.make(free: [201]))
        #expect(key(.character("é"), .down, on: &keyboard) == [.bind(201, 0xE9), .press(201)])
        #expect(typing("中", on: &keyboard).isEmpty)
        #expect(key(.character("é"), .up, on: &keyboard) == [.release(201)])
        #expect(typing("中", on: &keyboard) == [.sync, .bind(201, 0x0100_4E2D), .press(201), .release(201)])
    }

    /// Shift held by a key action is shared: a shifted character does not press it again, and
    /// it stays down until its own release.
    @Test func shiftIsShared() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        #expect(key(.named(.shift), .down, on: &keyboard) == [.press(50)])
        #expect(key(.character("A"), .down, on: &keyboard) == [.press(38)])
        #expect(key(.character("A"), .up, on: &keyboard) == [.release(38)])
        #expect(key(.named(.shift), .up, on: &keyboard) == [.release(50)])
    }

    /// A second press of a held key and a release of a key not held do nothing.
    @Test func duplicatePressAndStrayRelease() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        #expect(key(.character("a"), .down, on: &keyboard) == [.press(38)])
        #expect(key(.character("a"), .down, on: &keyboard).isEmpty)
        #expect(key(.named(.enter), .up, on: &keyboard).isEmpty)
    }

    /// releaseAll releases every held key, last pressed first, and Shift added for a character.
    @Test func releaseAllReleasesEverything() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        var steps: [X11KeyStep] = []
        keyboard.key(.named(.enter), .down, into: &steps)
        keyboard.key(.character("!"), .down, into: &steps)
        #expect(steps == [.press(36), .press(50), .press(10)])
        steps.removeAll()
        keyboard.releaseAll(into: &steps)
        #expect(steps == [.release(10), .release(50), .release(36)])
        steps.removeAll()
        keyboard.releaseAll(into: &steps)
        #expect(steps.isEmpty)
    }

    /// A named key the keymap lacks (a media key) is bound to a spare like a character.
    @Test func missingNamedKeyUsesASpare() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        #expect(key(.named(.mediaPlayPause), .down, on: &keyboard) == [.bind(201, 0x1008_FF14), .press(201)])
    }

    /// With no keymap at all (the server could not be asked), nothing is typed or bound.
    @Test func emptyKeymapTypesNothing() {
        var keyboard = X11Keyboard(keymap: X11Keymap(minimumKeycode: 8, keysymsPerKeycode: 1, keysyms: []))
        #expect(keyboard.spareKeycodes.isEmpty)
        #expect(typing("aé", on: &keyboard).isEmpty)
        #expect(key(.named(.enter), .down, on: &keyboard).isEmpty)
    }

    /// unbindAll syncs, then unbinds every bound spare.
    @Test func unbindAllRestoresSpares() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        _ = typing("éü", on: &keyboard)
        var steps: [X11KeyStep] = []
        keyboard.unbindAll(into: &steps)
        #expect(steps == [.sync, .bind(201, 0), .bind(200, 0)])
        steps.removeAll()
        keyboard.unbindAll(into: &steps)
        #expect(steps.isEmpty)
        #expect(keyboard.keymap.position(of: 0xE9) == nil)
    }

    /// After a mapping change, a spare someone else bound is given up; ours and free ones stay.
    @Test func updateGivesUpForeignSpares() {
        var keyboard = X11Keyboard(keymap: FakeKeymap.usLike)
        _ = typing("é", on: &keyboard)
        let changed = FakeKeymap.make(free: [200], extra: [201: [0xE9, 0xE9, 0xE9, 0xE9], 8: [0x1234, 0, 0, 0]])
        keyboard.update(keymap: changed)
        #expect(keyboard.spareKeycodes == [201, 200])
        #expect(typing("é", on: &keyboard) == [.press(201), .release(201)])
    }
}
