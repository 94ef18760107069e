// swift-tools-version: 6.1
// An app's own package testing its media player against a LifeSpec spec: the player is an
// ordinary library; the test target holds the generated conformance suite and the one function
// that hands it the system under test. LifeSpec is a path dependency here (../..); in your project
// use `.package(url: "<LifeSpec's repository>", from: "…")` or a path to your checkout.
import PackageDescription

let package = Package(
    name: "MediaPlayerExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The package is named by its folder: a checkout in a folder called LifeSpec is "lifespec".
        .package(name: "LifeSpec", path: "../..")
    ],
    targets: [
        .target(name: "MediaPlayer"),
        .testTarget(
            name: "MediaPlayerTests",
            dependencies: [
                "MediaPlayer",
                // The engine's library product: LifecycleSystem, ConformanceSuite, Observation.
                .product(name: "LifecycleEngine", package: "LifeSpec"),
            ]
        ),
    ]
)
