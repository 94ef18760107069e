import Foundation

/// One file the generator produces, relative to the output directory.
public struct GeneratedFile: Sendable, Hashable {
    public let path: String
    public let contents: [UInt8]

    public init(path: String, contents: [UInt8]) {
        self.path = path
        self.contents = contents
    }

    public init(path: String, text: String) {
        self.init(path: path, contents: Array(text.utf8))
    }
}
