import Foundation
import LifeSpec

/// libFuzzer entry point: any bytes as a spec file. The loader must answer with diagnostics,
/// never crash, trap or hang; every spec that loads must also replay through the engine (the
/// loader runs every rule, scenario replay included).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let result = SpecLoader.load(data: data, path: "fuzz.yaml")
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
