import Foundation

/// One file the generator produces, relative to the output directory.
package struct GeneratedFile: Sendable, Hashable {
    package let path: String
    package let contents: [UInt8]

    package init(path: String, contents: [UInt8]) {
        self.path = path
        self.contents = contents
    }

    package init(path: String, text: String) {
        self.init(path: path, contents: Array(text.utf8))
    }
}
