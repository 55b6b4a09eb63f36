import GestureControl
import Testing

@testable import GesturePadHost

@Suite struct BackendChooserTests {
    /// Every combination of the five facts.
    static let environments: [ControlEnvironment] = (0..<32).map { bits in
        ControlEnvironment(
            hasDisplay: bits & 1 != 0, hasWaylandDisplay: bits & 2 != 0, uinputWritable: bits & 4 != 0,
            portalOffersRemoteDesktop: bits & 8 != 0, compositorOffersVirtualInput: bits & 16 != 0)
    }

    /// `auto`, for every combination (Wayland, X, uinput writable, portal offered, wlroots
    /// protocols offered → choice): a writable `/dev/uinput` is the native touchpad in every
    /// session; in Wayland the portal comes before the wlroots protocols.
    @Test(arguments: environments) func auto(_ environment: ControlEnvironment) {
        let expected: BackendChoice
        switch (environment.uinputWritable, environment.hasWaylandDisplay, environment.hasDisplay) {
        case (true, _, _):
            expected = .backend(.touchpad)
        case (false, true, _):
            expected =
                environment.portalOffersRemoteDesktop
                ? .backend(.portal)
                : environment.compositorOffersVirtualInput
                    ? .backend(.wlroots) : .off(reason: BackendChooser.Message.waylandWithoutMeans)
        case (false, false, true):
            expected = .backend(.x11)
        case (false, false, false):
            expected = .off(reason: BackendChooser.Message.nothingAvailable)
        }
        #expect(BackendChooser.choose(.auto, in: environment) == expected)
    }

    /// The rows of the rules spelled out, so the messages are checked word for word.
    @Test func autoExamples() {
        func env(
            x: Bool = false, wayland: Bool = false, uinput: Bool = false, portal: Bool = false, wlroots: Bool = false
        ) -> ControlEnvironment {
            ControlEnvironment(
                hasDisplay: x, hasWaylandDisplay: wayland, uinputWritable: uinput, portalOffersRemoteDesktop: portal,
                compositorOffersVirtualInput: wlroots)
        }
        #expect(BackendChooser.choose(.auto, in: env(x: true)) == .backend(.x11))
        #expect(BackendChooser.choose(.auto, in: env(x: true, uinput: true)) == .backend(.touchpad))
        #expect(BackendChooser.choose(.auto, in: env(wayland: true, portal: true)) == .backend(.portal))
        #expect(BackendChooser.choose(.auto, in: env(wayland: true, wlroots: true)) == .backend(.wlroots))
        #expect(BackendChooser.choose(.auto, in: env(wayland: true, portal: true, wlroots: true)) == .backend(.portal))
        #expect(BackendChooser.choose(.auto, in: env(wayland: true, uinput: true, wlroots: true)) == .backend(.touchpad))
        #expect(
            BackendChooser.choose(.auto, in: env(x: true, wayland: true))
                == .off(
                    reason:
                        "Wayland session without the RemoteDesktop portal or the wlroots virtual pointer and keyboard, and /dev/uinput is not writable: gesturepad help control"
                ))
        #expect(BackendChooser.choose(.auto, in: env(x: true, wayland: true, uinput: true)) == .backend(.touchpad))
        #expect(BackendChooser.choose(.auto, in: env(wayland: true, uinput: true, portal: true)) == .backend(.touchpad))
        #expect(BackendChooser.choose(.auto, in: env(uinput: true)) == .backend(.touchpad))
        #expect(
            BackendChooser.choose(.auto, in: env())
                == .off(
                    reason:
                        "no DISPLAY and /dev/uinput is not writable: gesturepad help control"))
    }

    /// Explicit modes: the backend when it can work, else a failure (never a silent off).
    @Test(arguments: environments) func explicitModes(_ environment: ControlEnvironment) {
        #expect(BackendChooser.choose(.off, in: environment) == .off(reason: "control is off (--control off)"))
        #expect(
            BackendChooser.choose(.x11, in: environment)
                == (environment.hasDisplay
                    ? .backend(.x11)
                    : .failure("--control x11 needs an X session but DISPLAY is not set: gesturepad help control")))
        #expect(
            BackendChooser.choose(.uinput, in: environment)
                == (environment.uinputWritable
                    ? .backend(.uinput) : .failure("/dev/uinput is not writable: add the udev rule: gesturepad help control")))
        #expect(
            BackendChooser.choose(.portal, in: environment)
                == (environment.portalOffersRemoteDesktop
                    ? .backend(.portal)
                    : .failure(
                        "the desktop portal on the session bus does not offer RemoteDesktop (GNOME and KDE do; wlroots compositors such as Sway do not: use --control wlroots there): gesturepad help control"
                    )))
        let wlroots = BackendChooser.choose(.wlroots, in: environment)
        switch (environment.hasWaylandDisplay, environment.compositorOffersVirtualInput) {
        case (false, _):
            #expect(
                wlroots
                    == .failure(
                        "--control wlroots needs a Wayland session but WAYLAND_DISPLAY is not set: gesturepad help control"))
        case (true, false): #expect(wlroots == .failure(BackendChooser.Message.wlrootsNotOffered))
        case (true, true): #expect(wlroots == .backend(.wlroots))
        }
    }

    /// Every message is one line and points to docs/control.md.
    @Test(arguments: environments) func messagesAreOneLineWithTheDocs(_ environment: ControlEnvironment) {
        for mode in ControlMode.allCases {
            let message: String
            switch BackendChooser.choose(mode, in: environment) {
            case .backend: continue
            case .off(let reason): message = reason
            case .failure(let text): message = text
            }
            #expect(!message.contains("\n"))
            #expect(mode == .off || message.contains("gesturepad help control"))
        }
    }

    /// The environment is read from the variables: set and non-empty counts.
    @Test func environmentFromVariables() {
        let none = ControlEnvironment.current(environment: ["DISPLAY": "", "HOME": "/root"], uinputPath: "/nonexistent")
        #expect(none == ControlEnvironment(hasDisplay: false, hasWaylandDisplay: false, uinputWritable: false))
        let both = ControlEnvironment.current(
            environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"], uinputPath: "/nonexistent",
            portalProbe: { .failure(ControlBackendError.portal("no portal here")) }, compositorProbe: { false })
        #expect(both.hasDisplay && both.hasWaylandDisplay && !both.portalOffersRemoteDesktop)
    }

    /// The portal is asked only when its answer can change the choice: `--control portal`, and
    /// `auto` in a Wayland session; never for x11, uinput, off, or `auto` without Wayland.
    @Test func portalProbedOnlyWhenItMatters() {
        let wayland = ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]
        let xOnly = ["DISPLAY": ":0"]
        for mode in ControlMode.allCases {
            for variables in [wayland, xOnly, [:]] {
                var asked = false
                let facts = ControlEnvironment.current(
                    environment: variables, uinputPath: "/nonexistent", for: mode,
                    portalProbe: {
                        asked = true
                        return .success(())
                    }, compositorProbe: { false })
                let expected = mode == .portal || (mode == .auto && variables["WAYLAND_DISPLAY"] != nil)
                #expect(asked == expected, "\(mode) with \(variables)")
                #expect(facts.portalOffersRemoteDesktop == expected)
            }
        }
        let facts = ControlEnvironment.current(
            environment: wayland, uinputPath: "/nonexistent",
            portalProbe: { .failure(ControlBackendError.portal("no portal here")) }, compositorProbe: { false })
        #expect(!facts.portalOffersRemoteDesktop && facts.portalAbsence == .portal("no portal here"))
        #expect(BackendChooser.choose(.auto, in: facts) == .off(reason: BackendChooser.Message.waylandWithoutMeans))
        // `--control portal` says why, from the one probe.
        let asked = ControlEnvironment.current(
            environment: wayland, uinputPath: "/nonexistent", for: .portal,
            portalProbe: { .failure(ControlBackendError.portal("no portal here")) }, compositorProbe: { false })
        #expect(
            BackendChooser.choose(.portal, in: asked)
                == .failure(BackendChooser.Message.portalNotAvailable + " (no portal here)"))
        // Without a session bus there is no portal to ask: the message says so, not that the
        // portal refused.
        let busless = ControlEnvironment(
            hasDisplay: false, hasWaylandDisplay: true, uinputWritable: false,
            portalAbsence: .bus("cannot connect to the session bus (DBUS_SESSION_BUS_ADDRESS): No such file or directory"))
        guard case .failure(let why) = BackendChooser.choose(.portal, in: busless) else {
            Issue.record("--control portal chose a backend without a bus")
            return
        }
        #expect(why.hasPrefix("--control portal asks the desktop portal over the session bus, and there is none here"))
        #expect(why.contains("DBUS_SESSION_BUS_ADDRESS") && !why.contains("does not offer RemoteDesktop"))
    }

    /// The compositor is asked for its globals only when the answer can change the choice:
    /// `--control wlroots` in a Wayland session, and `auto` there when the portal did not
    /// answer (a writable `/dev/uinput` would win anyway, so it is not asked then either).
    @Test(arguments: [false, true]) func compositorProbedOnlyWhenItMatters(portal: Bool) {
        let wayland = ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]
        for mode in ControlMode.allCases {
            for variables in [wayland, ["DISPLAY": ":0"], [:]] {
                var asked = false
                let facts = ControlEnvironment.current(
                    environment: variables, uinputPath: "/nonexistent", for: mode,
                    portalProbe: { portal ? .success(()) : .failure(ControlBackendError.portal("no portal here")) },
                    compositorProbe: {
                        asked = true
                        return true
                    })
                let inWayland = variables["WAYLAND_DISPLAY"] != nil
                let expected = inWayland && (mode == .wlroots || (mode == .auto && !portal))
                #expect(asked == expected, "\(mode) with \(variables)")
                #expect(facts.compositorOffersVirtualInput == expected)
                if mode == .auto && inWayland {
                    #expect(BackendChooser.choose(.auto, in: facts) == .backend(portal ? .portal : .wlroots))
                }
            }
        }
    }

    /// Each kind's acceleration by default (none where the desktop accelerates) and kinetic
    /// scrolling. (What a backend can type is its instance's: `ControlBackend.capabilities`,
    /// tested with each backend.)
    @Test func defaultsByKind() {
        #expect(BackendKind.allCases.filter(\.takesContacts) == [.touchpad])
        #expect(BackendKind.allCases.map(\.defaultAcceleration) == [.adaptive, .flat, .flat, .adaptive, .adaptive])
        // Kinetic scrolling where the desktop only gets wheel clicks; the portal's and the
        // native touchpad's desktops coast by themselves.
        // The wlroots virtual pointer's scroll is a touchpad's (finger source, axis_stop), but the
        // server coasts, as for x11: the desktop has no touchpad of its own to coast with.
        #expect(BackendKind.allCases.filter(\.defaultKineticScrolling) == [.x11, .uinput, .wlroots])
        #expect(ControlMode(rawValue: "touchpad") == .touchpad)
        #expect(ControlMode.allCases.map(\.rawValue) == ["auto", "x11", "uinput", "touchpad", "portal", "wlroots", "off"])
    }

    /// `--control touchpad` needs a writable `/dev/uinput`, like `uinput`.
    @Test(arguments: environments) func touchpadNeedsUInput(_ environment: ControlEnvironment) {
        #expect(
            BackendChooser.choose(.touchpad, in: environment)
                == (environment.uinputWritable
                    ? .backend(.touchpad) : .failure(BackendChooser.Message.uinputNotWritable)))
    }
}

extension ControlEnvironment: CustomTestStringConvertible {
    public var testDescription: String {
        "DISPLAY \(hasDisplay), WAYLAND \(hasWaylandDisplay), uinput \(uinputWritable), portal \(portalOffersRemoteDesktop), wlroots \(compositorOffersVirtualInput)"
    }
}
