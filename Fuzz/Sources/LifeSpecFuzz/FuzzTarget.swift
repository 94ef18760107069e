import Foundation
import LifeSpec

/// What the fuzzer feeds its bytes to, from `LIFESPEC_FUZZ_TARGET` (Fuzz/run's first word):
/// `spec` (default) a YAML spec file, `scxml` an SCXML chart, `catalog` an API catalog file that a
/// fixed spec names (read through the catalog loader, as `validate` reads it).
enum FuzzTarget: String {
    case spec, scxml, catalog

    static let chosen: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["LIFESPEC_FUZZ_TARGET"] ?? "spec"
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError("LIFESPEC_FUZZ_TARGET: spec, scxml or catalog")
        }
        if target == .catalog { CatalogProject.prepare() }
        return target
    }()
}

/// A project folder (the current folder, so the catalog resolves inside it) with a spec that names
/// `catalog.yaml`; each input is written there before the spec is loaded.
enum CatalogProject {
    static func prepare() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifespec-fuzz-catalog-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard FileManager.default.changeCurrentDirectoryPath(folder.path) else {
            fatalError("cannot enter \(folder.path)")
        }
        let spec = """
            lifespec: 1
            id: lamp
            catalogs: [catalog.yaml]
            states: {off: {}, on: {}}
            initial: off
            events: {switchOn: {}, switchOff: {}}
            callbacks:
              switchedOn: {swift: "switchedOn()"}
            notifications:
              lit: {swift: "Lamp.didLight"}
            transitions:
              - {from: off, on: switchOn, to: on, do: [switchedOn, {notify: lit}]}
              - {from: on, on: switchOff, to: off}

            """
        guard FileManager.default.createFile(atPath: "lamp.yaml", contents: Data(spec.utf8)) else {
            fatalError("cannot write the fuzz spec")
        }
    }
}

/// libFuzzer entry point: any bytes as a spec file, an SCXML chart or an API catalog. The loader
/// must answer with diagnostics, never crash, trap or hang; every spec that loads must also replay
/// through the engine (the loader runs every rule, scenario replay included).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let result: SpecLoadResult
    switch FuzzTarget.chosen {
    case .spec: result = SpecLoader.load(data: data, path: "fuzz.yaml")
    case .scxml: result = SpecLoader.load(data: data, path: "fuzz.scxml")
    case .catalog:
        guard FileManager.default.createFile(atPath: "catalog.yaml", contents: data) else {
            fatalError("cannot write the catalog")
        }
        result = SpecLoader.load(path: "lamp.yaml")
    }
    // A spec without errors must come with a machine, and one with errors without.
    if result.hasErrors != (result.spec == nil) { fatalError("spec presence disagrees with diagnostics") }
    for diagnostic in result.diagnostics where diagnostic.location.line < 1 || diagnostic.location.column < 1 {
        fatalError("diagnostic without a location: \(diagnostic)")
    }
    return 0
}

// SwiftPM links an executable's entry point as `<Module>_main`; hand control to libFuzzer's driver
// from there (libFuzzer's own `main` is then not linked in).
// The Swift name is libFuzzer's C symbol, hence not lowerCamelCase.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("LifeSpecFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, length in fuzz(bytes, length) }
}
