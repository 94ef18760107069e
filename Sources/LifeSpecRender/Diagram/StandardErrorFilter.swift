import Foundation

/// Graphviz's path planner prints some complaints straight to the process's standard error with
/// `fprintf` (`libpath/shortest.c:…: triangulation failed`, then routes the edge another way), not
/// through `agerr` where `GraphvizMessages` hears them: a successful run printed them. While a
/// layout runs (one at a time, under the renderer's lock) file descriptor 2 goes to a temporary
/// file; afterwards the planner's lines are dropped and anything else is passed on unchanged.
enum StandardErrorFilter {
    /// Runs `body` with standard error captured; returns its result and the planner lines it dropped.
    static func run<T>(_ body: () -> T) -> (T, [String]) {
        fflush(nil)
        guard let file = tmpfile() else { return (body(), []) }
        defer { fclose(file) }
        let saved = dup(2)
        guard saved >= 0, dup2(fileno(file), 2) >= 0 else {
            if saved >= 0 { close(saved) }
            return (body(), [])
        }
        let result = body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        var captured: [UInt8] = []
        rewind(file)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // fread(3) fills memory through a pointer: C interop, not an optimisation.
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            captured += chunk[0..<count]
        }
        guard !captured.isEmpty else { return (result, []) }
        var dropped: [String] = []
        var passed = ""
        for line in String(decoding: captured, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast(captured.last == 0x0A ? 1 : 0)
        {
            if isPlannerLine(line) { dropped.append(String(line)) } else { passed += line + "\n" }
        }
        if !passed.isEmpty { FileHandle.standardError.write(Data(passed.utf8)) }
        return (result, dropped)
    }

    static func isPlannerLine(_ line: Substring) -> Bool {
        line.hasPrefix("libpath/") || line.contains("triangulation failed")
            || line.contains("in routesplines, Pshortestpath failed")
    }
}
