// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The libraries do almost all of the tests' work, and unoptimised they are several times slower
// (figures in the README's "Tests and golden files"). LIFESPEC_OPTIMIZE=1 (the README's test
// command, and CI) compiles them with -O in debug builds too; tests and the CLI stay unoptimised.
// Only on request: SwiftPM refuses a dependency fetched by URL whose targets carry unsafe flags, and
// consumers depend on LifecycleEngine.
let testBuild = ProcessInfo.processInfo.environment["LIFESPEC_OPTIMIZE"] == "1"
let librarySettings: [SwiftSetting] = testBuild ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

// The test build also leaves the plugins out. SwiftPM builds a plugin's tool for the host apart,
// as `-tool` modules, even in a package that applies none of its plugins: `lifespec` and every
// library under it compiled twice (in CI's build, 8 of its 17 Swift modules). Nothing in this
// package applies them; PluginTests builds and runs them through Tests/Fixtures/ConsumerPackage,
// which depends on this package without the variable.
let pluginProducts: [Product] =
    testBuild
    ? []
    : [
        // `swift package lifespec generate|check` in a package that depends on this one.
        .plugin(name: "LifeSpecCommandPlugin", targets: ["LifeSpecCommandPlugin"]),
        // Compiles a conformance suite from each spec in a target's folder into the target.
        .plugin(name: "LifeSpecSuites", targets: ["LifeSpecSuitesPlugin"]),
    ]
let pluginTargets: [Target] =
    testBuild
    ? []
    : [
        .plugin(
            name: "LifeSpecCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "lifespec", description: "Generate (or check) Output/ from the package's lifecycle specs"),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "lifespec generate writes the diagrams and reference pages to Output/")
                ]
            ),
            dependencies: ["lifespec"]
        ),
        .plugin(name: "LifeSpecSuitesPlugin", capability: .buildTool(), dependencies: ["lifespec"]),
    ]

let package = Package(
    name: "LifeSpec",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lifespec", targets: ["lifespec"]),
        // The shared engine: generated conformance suites and other programs import it.
        .library(name: "LifecycleEngine", targets: ["LifecycleEngine"]),
        .library(name: "LifeSpec", targets: ["LifeSpec"]),
    ] + pluginProducts,
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
    ],
    targets: [
        .target(name: "LifecycleEngine", swiftSettings: librarySettings),
        .target(
            name: "LifeSpec",
            dependencies: ["LifecycleEngine", .product(name: "Yams", package: "Yams")],
            // A link to schema/lifespec.schema.json, the schema's one source.
            resources: [.embedInCode("Resources/lifespec.schema.json")],
            swiftSettings: librarySettings
        ),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev", "pkg-config"]), .brew(["graphviz", "pkg-config"])]
        ),
        // PNG encoding for the diagrams' bitmaps, outside Graphviz's lock (see GraphvizRenderer).
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "pkg-config"]), .brew(["libpng", "pkg-config"])]
        ),
        // Bitmaps recorded under Graphviz's lock and turned into pixels outside it (see GraphvizRenderer).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev", "pkg-config"]), .brew(["cairo", "pkg-config"])]
        ),
        // SHA-256 with the x86 SHA extensions, for the drawings' digests (see SHA256.swift).
        .target(name: "CSHA256"),
        // The renderers: a loaded spec in, bytes out (drawings, Mermaid, pages, DocC, suites).
        .target(
            name: "LifeSpecRender", dependencies: ["LifeSpec", "CGraphviz", "CLibPNG", "CCairo"],
            swiftSettings: librarySettings),
        // The build system around them: `generate`'s run, the output transaction, freshness and caches,
        // and the watch loop.
        .target(
            name: "LifeSpecGenerate", dependencies: ["LifeSpec", "LifeSpecRender", "CLibPNG", "CSHA256"],
            swiftSettings: librarySettings),
        .target(
            name: "LifeSpecCLI",
            dependencies: [
                "LifeSpec", "LifeSpecRender", "LifeSpecGenerate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "lifespec", dependencies: ["LifeSpecCLI"]),
        // `lifespec` with the transaction's test probe installed (TransactionProbe): the tests that
        // kill a run inside a chosen step run this, so the tool itself carries no test hooks.
        .executableTarget(
            name: "lifespec-test-host", dependencies: ["LifeSpec", "LifeSpecCLI", "LifeSpecGenerate"],
            path: "Tests/LifeSpecTestHost"),
        // Golden, fixture and subprocess helpers shared by the test targets.
        .target(name: "LifeSpecTestSupport", dependencies: ["LifeSpec"], path: "Tests/LifeSpecTestSupport"),
        .testTarget(name: "LifecycleEngineTests", dependencies: ["LifecycleEngine"]),
        .testTarget(name: "LifeSpecTests", dependencies: ["LifeSpec", "LifeSpecTestSupport"]),
        .testTarget(
            name: "LifeSpecRenderTests",
            // CLibPNG decodes bitmaps to compare them with Graphviz's own; CCairo's recordings are tested on their own.
            dependencies: [
                "LifeSpecRender", "LifeSpecGenerate", "LifeSpecTestSupport", "CLibPNG", "CCairo",
                .product(name: "Ink", package: "Ink"),
            ]
        ),
        .testTarget(
            name: "LifeSpecGenerateTests",
            dependencies: ["LifeSpecGenerate", "LifeSpecRender", "LifeSpecTestSupport", "CLibPNG"]
        ),
        // Yams: DiffTests writes a spec with its keys reordered.
        .testTarget(
            name: "LifeSpecCLITests",
            dependencies: ["LifeSpecCLI", "LifeSpecTestSupport", .product(name: "Yams", package: "Yams")]
        ),
        // The engine against the shared SCXML conformance charts (SCION, W3C) and against Qt SCXML.
        .testTarget(
            name: "SCXMLConformanceTests", dependencies: ["LifeSpec", "LifecycleEngine", "LifeSpecTestSupport"],
            // Run by /usr/bin/python3 from the source tree (Qt SCXML through PySide2).
            exclude: ["qt_scxml.py"]
        ),
        // Compiles and runs the generated conformance suites: Generated/ (one per spec in Spec/) and
        // Fixtures/ (a link to the Swift-suite goldens), against the engine loaded from each spec.
        .testTarget(
            name: "GeneratedConformanceTests",
            dependencies: ["LifecycleEngine", "LifeSpec", "LifeSpecRender", "LifeSpecGenerate", "LifeSpecTestSupport"]
        ),
    ] + pluginTargets
)
