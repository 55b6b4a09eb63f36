/// The topics of `gesturepad help TOPIC`: short texts for a user of an installed GesturePad,
/// who has the manual page and this command but not the source tree's docs/.
enum HelpTopic: String, CaseIterable {
    case control
    case pairing
    case observer
    case tls
    case config
    case page

    /// The name of the udev rule that opens /dev/uinput to the user at the seat.
    static let uinputRule = "70-gesturepad-uinput.rules"

    /// One line for the overview.
    var summary: String {
        switch self {
        case .control: "what drives the computer (x11, uinput, touchpad, portal, wlroots) and what each needs"
        case .pairing: "how phones pair, and gesturepad devices"
        case .observer: "the observer view (watch.html) on another screen"
        case .tls: "HTTPS with --tls, and trusting it once on the phone (/trust)"
        case .config: "the configuration file and checking it"
        case .page: "the touchpad page: gestures, keyboard, buttons, settings"
        }
    }

    /// The topic's text; `udevRules` is the folder of this installation's udev rules, if found.
    func text(udevRules: String?) -> String {
        switch self {
        case .control: Self.controlText(udevRules: udevRules)
        case .pairing: Self.pairingText
        case .observer: Self.observerText
        case .tls: Self.tlsText
        case .config: Self.configText
        case .page: Self.pageText
        }
    }

    private static func controlText(udevRules: String?) -> String {
        let rules = udevRules ?? "the udev rules shipped with GesturePad (FILES in man gesturepad)"
        let folder = udevRules.map { "\($0)/" } ?? ""
        return """
            What drives the computer (--control, default auto)

              x11       the X server named by DISPLAY, through XTest. Needs an X session (DISPLAY set).
              uinput    a virtual pointer and keyboard through /dev/uinput: any session, X11, Wayland or
                        the console. Needs write access to /dev/uinput (below).
              touchpad  the phone as the desktop's own touchpad, through /dev/uinput: the desktop's
                        touchpad settings, gestures and kinetic scrolling apply. Needs /dev/uinput too.
              portal    the desktop's RemoteDesktop portal (GNOME, KDE on Wayland): the desktop asks once
                        in a dialog, and the permission is kept.
              wlroots   the Wayland compositor's virtual pointer and keyboard (Sway, Hyprland, river,
                        labwc, Wayfire): no setup, no dialog; any Unicode is typed.
              off       nothing is driven: gestures are only shown, logged and handed to hooks.

            auto picks touchpad when /dev/uinput is writable, else in a Wayland session the portal when it
            offers RemoteDesktop, else wlroots when the compositor offers its virtual pointer and
            keyboard, else x11 when DISPLAY is set, else runs without control and says why.

            Typing: x11 and wlroots type any printable character; uinput, touchpad and the portal type what the
            desktop's keyboard layout has (for uinput and touchpad, --keyboard-layout names it when it
            cannot be found); with several layouts, only what every one of them types alike, as which
            one is active is not known. Kinetic scrolling: the server coasts for x11, uinput and wlroots, the
            desktop for touchpad and the portal.

            Nothing stays pressed when the phone goes away or the server ends, even killed: with x11
            a small second process, gesturepad x11-release-guard, releases what the server held the
            moment it ends; uinput and touchpad devices vanish with the server; GNOME's portal ends
            the session; with wlroots the compositor lets go of keys, and the next server releases a
            button a killed one held. KDE Plasma's portal keeps what a killed server held until the server starts
            again (the systemd user unit restarts it).

            Opening /dev/uinput to yourself (once, as root), with \(rules):
              sudo cp \(folder)\(uinputRule) /etc/udev/rules.d/
              sudo modprobe uinput
              sudo udevadm control --reload && sudo udevadm trigger --name-match=uinput
            For --control touchpad, also copy \(folder)71-gesturepad-touchpad.rules the same way.

            No DISPLAY: the server was started outside the graphical session (a terminal over SSH, a
            system service). Start it from a terminal of the desktop, or as the systemd user unit
            (systemctl --user enable --now gesturepad); a session that does not hand its display to
            the unit (a bare window manager started by startx) can do it in its start-up script:
              systemctl --user import-environment DISPLAY XAUTHORITY WAYLAND_DISPLAY
              systemctl --user restart gesturepad
            Or install the udev rule above: uinput and touchpad need no display.
            """
    }

    private static let pairingText = """
        Pairing phones

        The address the server prints (and gesturepad url) carries the pairing secret (#token=...).
        A phone that opens it is paired once: it gets a key of its own and reconnects with it, without
        the secret. Neither the secret nor a key is ever sent over the network: the phone proves it
        holds them, and what it types travels encrypted. Keep the address private; gesturepad serve
        --new-token makes a new secret (old links pair no one, paired phones keep working).

        Pairing is a moment: the link pairs a new phone only for 5 minutes after the code is shown
        (the server's start, gesturepad pair; gesturepad url only prints it) and at most 4 new phones each time, then nobody
        (a phone that opens it then waits, and pairs once pairing is opened again). At most 32 phones
        are paired at once.

          gesturepad pair                     open pairing for 5 minutes again, and show the code
          gesturepad pair --close             close it now: the link pairs nobody
          gesturepad devices                  the paired phones: name, kind, paired, last seen, connected
          gesturepad devices rename NAME NEW  rename one; a connected phone shows the new name at once
          gesturepad devices forget NAME      forget one: it is disconnected and must scan the code again
          gesturepad devices forget --all     forget them all (serve --forget-devices does it at start)

        With serve --confirm-pairing a new phone waits until you accept it, in the desktop
        notification or with gesturepad devices allow NAME (deny NAME refuses it), at any time.

        A phone that pairs again (its browser data cleared, or the code scanned anew) while its
        entry is not connected takes that entry back, with its name: the same browser (user agent,
        model, address) is not added twice. Its earlier key stops working.
        """

    private static let observerText = """
        The observer view

        Open http://HOST:PORT/watch.html#token=... on another screen (the start-up banner and
        gesturepad url print the address): it shows every phone's gestures live, each session named
        by its phone, with a line per gesture and per command ("typed 8 characters", "Control+C",
        "right click"; never the text typed). It never drives the computer. A browser that opens it
        with the secret is paired as an observer: gesturepad devices lists it as "Watching · ..." of
        kind observer, and its touchpad page is refused (it was paired to watch, not to type).
        """

    private static let tlsText = """
        HTTPS: --tls

        gesturepad serve --tls serves the page over HTTPS with GesturePad's own small certificate
        authority, made once in the state directory. On HTTPS the phone's browser keeps the screen
        awake, can install the page as an app and sends pointer moves sooner.

        Trust it once on each phone: the banner prints the /trust address with a QR code. That page
        has the certificate and the steps for Android and iPhone; compare its fingerprint with the
        one the banner printed. --tls-cert FILE --tls-key FILE use your own certificate instead.
        In the configuration file: server.tls: true, or server.tlsCert and server.tlsKey.

        A phone paired over plain HTTP keeps its pairing: its open page moves to the https address
        by itself once the phone trusts the certificate (until then it shows the trust page's way).
        """

    private static let configText = """
        The configuration file

        Read from --config FILE, else ~/.config/gesturepad/config.yaml ($XDG_CONFIG_HOME), else
        /etc/gesturepad/config.yaml; --no-config reads none. The banner says which file was read.
        An example with every section commented is installed with GesturePad (FILES in
        man gesturepad).

          gesturepad check-config [FILE]           check it: each mistake as FILE:LINE:COLUMN
          gesturepad check-config --print-keys     every key, its type, default and meaning

        Its sections: server (port, host, token, tls, pairing, limits), gestures (the thresholds),
        control (the backend and pointer settings), hooks (your commands run on gestures), log.
        """

    private static let pageText = """
        The touchpad page

        Gestures: one finger moves the pointer; a tap clicks (two fingers: right click, three:
        middle); tap then touch and move drags; a long press then move drags too; two fingers
        scroll; a pinch zooms (Control + wheel); three-finger swipes press the keys the
        configuration gives them. With --control touchpad the desktop's own touchpad settings and
        gestures apply instead.

        The toolbar (bottom right): Keyboard opens the phone's keyboard and types on the computer,
        with a row of keys (Esc, Tab, arrows, Control, Alt, ...); Mouse buttons shows left, middle
        and right buttons (a short press clicks, a long one holds); Settings sets pointer speed,
        acceleration, scrolling, tap to click, tap and drag, drag lock and left-handed for this
        phone. Media shows what plays on the computer (any MPRIS player: title, artist, cover, a
        seek bar, play/pause, previous/next, the player's volume, the computer's volume keys) and
        works with --control off too; Presenter turns the phone into a slide remote (big
        previous / next slide targets, a blank-screen button, a clock and a timer). The header's
        ? opens the same help on the phone.
        """
}
