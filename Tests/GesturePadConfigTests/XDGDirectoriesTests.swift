import Testing

@testable import GesturePadConfig

/// The XDG folders, worked out in one place for the configuration file and the state
/// directory (token, devices, the portal's restore token).
@Suite struct XDGDirectoriesTests {
    /// State: `$XDG_STATE_HOME/gesturepad` when absolute, else `~/.local/state/gesturepad`.
    @Test func stateFolder() {
        #expect(XDGDirectories.state(environment: ["XDG_STATE_HOME": "/s/", "HOME": "/h"]) == "/s/gesturepad")
        #expect(
            XDGDirectories.state(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/gesturepad")
        #expect(XDGDirectories.state(environment: ["HOME": "/h"]) == "/h/.local/state/gesturepad")
        #expect(XDGDirectories.state(environment: [:]) == nil)
    }

    /// Without HOME (or with an empty one) the account's home stands in; XDG_STATE_HOME still
    /// comes first.
    @Test func stateFolderWithoutHome() {
        #expect(XDGDirectories.state(environment: ["HOME": ""], accountHome: "/home/me/") == "/home/me/.local/state/gesturepad")
        #expect(XDGDirectories.state(environment: [:], accountHome: "/home/me") == "/home/me/.local/state/gesturepad")
        #expect(XDGDirectories.state(environment: ["XDG_STATE_HOME": "/s"], accountHome: "/home/me") == "/s/gesturepad")
        #expect(XDGDirectories.state(environment: ["HOME": "/"]) == "/.local/state/gesturepad")
    }

    /// Configuration: `$XDG_CONFIG_HOME/gesturepad` when absolute, else `~/.config/gesturepad`;
    /// the account's home does not count (no HOME: only the system's file).
    @Test func configFolder() {
        #expect(XDGDirectories.config(environment: ["XDG_CONFIG_HOME": "/c//", "HOME": "/h"]) == "/c/gesturepad")
        #expect(XDGDirectories.config(environment: ["XDG_CONFIG_HOME": "c", "HOME": "/h"]) == "/h/.config/gesturepad")
        #expect(XDGDirectories.config(environment: [:]) == nil)
    }
}
