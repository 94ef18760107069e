// swift-tools-version: 6.1
// The libFuzzer target for the spec loader and validator. Its own package so the main build never
// needs -sanitize=fuzzer; Fuzz/run builds and runs it.
import PackageDescription

let package = Package(
    name: "LifeSpecFuzz",
    // `LifeSpec` is a link to the repository root made by Fuzz/run: a path dependency is named
    // after its folder, and a clone can have any name.
    dependencies: [.package(path: "LifeSpec")],
    targets: [
        .executableTarget(
            name: "LifeSpecFuzz",
            dependencies: [.product(name: "LifeSpec", package: "LifeSpec")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ]
)
