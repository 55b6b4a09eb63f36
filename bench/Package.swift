// swift-tools-version: 6.1
import PackageDescription

// The benchmark tools, a package of their own beside the app's (never built by the app's
// `swift build` / `swift test` / `make check`): `make bench` and `make soak` build them into
// bench/.build through scripts/build-release.sh, the app's one release configuration. They
// reach the engine, the protocol and the control mapping through the app's library products.
let package = Package(
    name: "GesturePadBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gesturepad-bench", targets: ["GesturePadBench"]),
        .executable(name: "gesturepad-loadgen", targets: ["GesturePadLoadGen"]),
    ],
    dependencies: [
        // The app, by path (named, as the folder a clone sits in can be called anything).
        .package(name: "GesturePad", path: "..")
    ],
    targets: [
        // libwebsockets' client API, for the load generator (the app's C bridge is the server's).
        .systemLibrary(
            name: "CLibWebSocketsClient",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // Engine / decode / replay / session micro-benchmarks on the app's public API.
        .executableTarget(
            name: "GesturePadBench",
            dependencies: [
                .product(name: "GestureEngine", package: "GesturePad"),
                .product(name: "GestureProtocol", package: "GesturePad"),
                .product(name: "GestureControl", package: "GesturePad"),
            ]
        ),
        // The WebSocket load generator: N connections on one lws client context.
        .executableTarget(
            name: "GesturePadLoadGen",
            dependencies: [
                "CLibWebSocketsClient",
                .product(name: "GestureEngine", package: "GesturePad"),
                .product(name: "GestureProtocol", package: "GesturePad"),
            ]
        ),
        .testTarget(name: "GesturePadLoadGenTests", dependencies: ["GesturePadLoadGen"]),
    ]
)
