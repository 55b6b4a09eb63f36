// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "GesturePad",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gesturepad", targets: ["gesturepad"]),
        .library(name: "GestureEngine", targets: ["GestureEngine"]),
        .library(name: "GestureControl", targets: ["GestureControl"]),
        // The wire protocol (parsing, encoding, the session): what the bench package
        // (bench/Package.swift) measures and replays, besides the engine and the mapping.
        .library(name: "GestureProtocol", targets: ["GestureProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.0.0"),
        // 4.x: FoundationEssentials on Linux, where 3.x imports the whole of Foundation (and so ICU);
        // a lower bound of 4 also moves a clone whose Package.resolved still pins 3.x.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.0.0"),
    ],
    targets: [
        // The C bridge: the system libraries, wrapped by module maps and tiny shims.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // X11 and its XTest extension, for the `x11` control backend.
        .systemLibrary(
            name: "CXTest",
            pkgConfig: "xtst",
            providers: [.apt(["libxtst-dev", "libx11-dev"])]
        ),
        // The kernel's uinput interface (linux/uinput.h), for the `uinput` control backend.
        .systemLibrary(name: "CUInput"),
        // glibc's GNU posix_spawn file actions (chdir, closefrom), for the hooks' processes.
        .systemLibrary(name: "CSpawn"),
        // The Wayland client library and xkbcommon: the desktop's keyboard layout, for the
        // `portal` control backend (which characters it can type). Debian: libwayland-dev,
        // libxkbcommon-dev (headers in /usr/include; the module map links both).
        .systemLibrary(name: "CWaylandKeymap"),
        // The virtual pointer and keyboard protocols of wlroots compositors (Sway, Hyprland,
        // river, labwc, Wayfire), for the `wlroots` control backend: the protocol XML with its
        // license, and the C glue wayland-scanner made from it (committed: building needs no
        // scanner; scripts/wayland-scanner.sh remakes it). Links libwayland-client.
        .target(name: "CWaylandVirtualInput", exclude: ["protocol"]),
        // System calls outside the C bridges: `-1` and errno turned into thrown errors in one
        // place, for the sinks, the server and the host.
        .target(name: "GesturePadSystem", dependencies: ["CSpawn"]),
        // The engine: pure Swift, no I/O, no clock.
        .target(name: "GestureEngine"),
        // The control mapping: pointer input and gestures → host actions; pure, no clock. The
        // `ControlBackend` protocol that carries the actions out lives here too.
        .target(name: "GestureControl", dependencies: ["GestureEngine"]),
        // The backends that carry host actions out on the computer (X11, uinput, portal).
        .target(
            name: "GesturePadHost",
            dependencies: [
                "CXTest", "CUInput", "GestureControl", "CSDBus", "CWaylandKeymap", "CWaylandVirtualInput",
                "GesturePadSystem",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The wire protocol: parsing, encoding and the per-connection protocol state machine.
        .target(name: "GestureProtocol", dependencies: ["GestureEngine", "GestureControl"]),
        // The settings the server and the sinks take, as plain values with their bounds
        // (ServerConfiguration, PairingSettings, HookRule …): beneath both, and beneath the
        // configuration that fills them. Pure.
        .target(name: "GesturePadSettings", dependencies: ["GestureEngine", "GestureControl", "GestureProtocol"]),
        // The server: libwebsockets transport, sessions, timers. No device or D-Bus code: the CLI
        // hands it a `ControlBackend` and a `PairingNotifier` from GesturePadHost.
        .target(
            name: "GesturePadServer",
            dependencies: [
                "CLibWebSockets", "CQREncode", "GestureEngine", "GestureProtocol", "GestureControl", "GesturePadSettings",
                "GesturePadSystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The sinks: terminal and JSON logs, command hooks.
        .target(
            name: "GesturePadSinks",
            dependencies: [
                "GestureEngine", "GestureProtocol", "GestureControl", "GesturePadSettings", "GesturePadSystem",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libyaml, the YAML parser of the configuration file. Debian: libyaml-dev.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // YAML documents as node trees (tags resolved, marks kept, aliases followed, repeated
        // keys refused), over libyaml's events: the bridge, with libyaml's pointers.
        .target(name: "GesturePadYAML", dependencies: ["CYAML"]),
        // The configuration, in one place: the file (YAML decoded into the settings types, one
        // key table per section), the flags-over-file merge, the token's source, the XDG
        // folders. Pure but for reading the file; the server and the sinks never import it.
        .target(
            name: "GesturePadConfig",
            dependencies: [
                "GestureEngine", "GestureProtocol", "GestureControl", "GesturePadSettings", "GesturePadSystem", "GesturePadYAML",
            ]
        ),
        // The CLI.
        .executableTarget(
            name: "gesturepad",
            dependencies: [
                "GestureEngine", "GestureProtocol", "GesturePadServer", "GesturePadSinks", "GestureControl",
                "GesturePadHost", "GesturePadConfig", "GesturePadSettings", "GesturePadSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What several test targets share: the seeded generator their random cases come from.
        .target(name: "GesturePadTestSupport", path: "Tests/Support"),
        .testTarget(name: "GestureEngineTests", dependencies: ["GestureEngine"]),
        .testTarget(name: "GesturePadSystemTests", dependencies: ["GesturePadSystem"]),
        .testTarget(name: "GesturePadYAMLTests", dependencies: ["GesturePadYAML"]),
        .testTarget(
            name: "GestureControlTests", dependencies: ["GestureControl", "GestureEngine", "GesturePadTestSupport"]),
        .testTarget(name: "GesturePadHostTests", dependencies: ["GesturePadHost", "GestureControl"]),
        .testTarget(
            name: "GestureProtocolTests", dependencies: ["GestureProtocol", "GestureEngine", "GesturePadTestSupport"]),
        .testTarget(
            name: "GesturePadSinksTests",
            dependencies: [
                "GesturePadSinks", "GesturePadSettings", "GesturePadConfig", "GestureEngine", "GestureProtocol",
                "GestureControl",
            ]
        ),
        .testTarget(
            name: "GesturePadConfigTests",
            dependencies: ["GesturePadConfig", "GesturePadSettings", "GestureEngine", "GestureControl", "GestureProtocol"]
        ),
        .testTarget(
            name: "GesturePadServerTests",
            dependencies: ["GesturePadServer", "GesturePadSettings", "GestureProtocol", "GestureEngine", "GestureControl"]
        ),
        // sd-bus (libsystemd), the D-Bus library of the `portal` control backend.
        .systemLibrary(
            name: "CSDBus",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
    ]
)

// The libFuzzer targets (Fuzz/, docs/testing.md), only in the manifest when
// GESTUREPAD_FUZZ is set: they link libFuzzer's driver, so they build only with
// `-sanitize=fuzzer` (scripts/fuzz.sh, `make fuzz-smoke` / `make fuzz`), never in the
// normal `swift build` / `swift test`.
if Context.environment["GESTUREPAD_FUZZ"] != nil {
    package.products += ["FuzzProtocol", "FuzzEngine", "FuzzControl", "FuzzConfig"].map {
        .executable(name: $0, targets: [$0])
    }
    package.targets += [
        // libFuzzer's driver entry point (the toolchain ships no header for it).
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(
            name: "FuzzSupport", dependencies: ["CLibFuzzer", "GestureEngine", "GestureControl"], path: "Fuzz/FuzzSupport"),
        .executableTarget(
            name: "FuzzProtocol", dependencies: ["FuzzSupport", "GestureProtocol", "GestureEngine", "GestureControl"],
            path: "Fuzz/FuzzProtocol"),
        .executableTarget(
            name: "FuzzEngine", dependencies: ["FuzzSupport", "GestureEngine"], path: "Fuzz/FuzzEngine"),
        .executableTarget(
            name: "FuzzControl", dependencies: ["FuzzSupport", "GestureEngine", "GestureControl"], path: "Fuzz/FuzzControl"),
        .executableTarget(
            name: "FuzzConfig", dependencies: ["FuzzSupport", "GestureEngine", "GesturePadConfig"], path: "Fuzz/FuzzConfig"),
    ]
}
