// swift-tools-version: 6.1
// A package that uses LifeSpec the way an app's package would: the command plugin generates its
// Output/ from Spec/, and the build-tool plugin compiles a conformance suite from the spec in the
// DoorTests folder. LifeSpec's PluginTests build and run it (see Tests/LifeSpecCLITests/PluginTests.swift).
//
// An app names LifeSpec by URL; this fixture depends on the checkout it sits in, by path — or on
// LIFESPEC_PACKAGE, which the tests set when they run a copy of it elsewhere.
import Foundation
import PackageDescription

let lifespecPath =
    Context.environment["LIFESPEC_PACKAGE"]
    ?? URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardizedFileURL.path
// A path dependency's identity is its folder's name.
let lifespec = URL(fileURLWithPath: lifespecPath).lastPathComponent

let package = Package(
    name: "ConsumerPackage",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: lifespecPath)],
    targets: [
        .testTarget(
            name: "DoorTests",
            dependencies: [
                .product(name: "LifecycleEngine", package: lifespec),
                .product(name: "LifeSpec", package: lifespec),
            ],
            plugins: [.plugin(name: "LifeSpecSuites", package: lifespec)]
        )
    ]
)
