import Testing

@testable import GesturePadHost

/// Each correction of KDE's portal applies to the releases that need it, and only those.
@Suite struct PortalReleaseTests {
    @Test func kwinsVersionFromItsSupportInformation() {
        let text = """
            KWin Support Information:
            ==========================

            Version
            =======
            KWin version: 5.27.5
            Qt Version: 5.15.8
            """
        #expect(DesktopVersion.fromKWinSupportInformation(text) == DesktopVersion(5, 27, 5))
        #expect(DesktopVersion.fromKWinSupportInformation("KWin version: 6.5.90\n") == DesktopVersion(6, 5, 90))
        #expect(DesktopVersion.fromKWinSupportInformation("Qt Version: 5.15.8") == nil)
        #expect(DesktopVersion.fromKWinSupportInformation("KWin version: five") == nil)
    }

    @Test func versionsCompareByParts() {
        #expect(DesktopVersion(5, 27) == DesktopVersion(5, 27, 0))
        #expect(DesktopVersion(5, 27, 5) < DesktopVersion(5, 100))
        #expect(DesktopVersion(6, 0) > DesktopVersion(5, 27, 11))
        #expect(DesktopVersion("5.27.5") == DesktopVersion(5, 27, 5))
        #expect(DesktopVersion("5..1") == nil && DesktopVersion("") == nil)
    }

    @Test func rangesBoundTheCorrections() {
        let range = ReleaseRange(since: DesktopVersion(5, 27), fixed: DesktopVersion(6, 5))
        #expect(!range.contains(DesktopVersion(5, 26, 90)))
        #expect(range.contains(DesktopVersion(5, 27, 0)) && range.contains(DesktopVersion(6, 4, 5)))
        #expect(!range.contains(DesktopVersion(6, 5)), "a fixed release is not corrected twice")
        #expect(!range.contains(nil), "once a fix exists, an unknown release is not assumed broken")
        #expect(ReleaseRange(since: DesktopVersion(5, 27), fixed: nil).contains(nil))
    }

    @Test func kdeCorrectionsFollowTheRelease() {
        let current = PortalDesktop(kind: .kde, version: DesktopVersion(5, 27, 5))
        #expect(current.negatesVerticalAxis && current.discreteStepsAreAxisValues)
        #expect(current.name == "KDE Plasma 5.27.5")
        let older = PortalDesktop(kind: .kde, version: DesktopVersion(5, 26, 5))
        #expect(!older.negatesVerticalAxis && !older.discreteStepsAreAxisValues)
        #expect(older.typesByKeycode, "key codes from the desktop's keymap are right on every release")
        let unknown = PortalDesktop(kind: .kde)
        #expect(unknown.negatesVerticalAxis && unknown.name == "KDE Plasma")
        #expect(PortalDesktop.gnome.corrections.isEmpty)
        #expect(current.corrections.contains("the vertical scroll's sign"))
    }

    /// 5.27.5 gets the corrected sign and step size; 5.26, before the portal did either, gets
    /// what the interface documents.
    @Test func theEncoderSendsWhatTheReleaseNeeds() {
        func encoded(_ version: DesktopVersion) -> [PortalNotify] {
            var encoder = PortalActionEncoder(desktop: PortalDesktop(kind: .kde, version: version))
            var calls: [PortalNotify] = []
            encoder.encode(.wheel(dx: 0, dy: 1), into: &calls)
            encoder.encode(.key(.named(.control), .down), into: &calls)
            encoder.encode(.wheel(dx: 0, dy: -2), into: &calls)
            return calls
        }
        let current = encoded(DesktopVersion(5, 27, 5))
        #expect(current.first == .pointerAxis(dx: 0, dy: -10, finish: false))
        #expect(current.last == .pointerAxisDiscrete(axis: 0, steps: -20))
        let older = encoded(DesktopVersion(5, 26))
        #expect(older.first == .pointerAxis(dx: 0, dy: 10, finish: false))
        #expect(older.last == .pointerAxisDiscrete(axis: 0, steps: -2))
    }
}
