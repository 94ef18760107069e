import Foundation
import Yams

/// A spec's YAML as JSON, with scalars typed the way the loader reads them (only plain `true` and
/// `false` in any case are booleans, plain numbers are numbers, `~`/`null`/empty are null,
/// everything else — `on`, `yes`, quoted `"1"` — is a string). A JSON Schema validator then sees
/// what the loader sees; YAML 1.1 readers would turn the key `on:` into `true`.
package enum SpecJSON {
    /// The JSON text of the YAML document, or `nil` when it does not parse.
    package static func json(fromYAML text: String) -> String? {
        guard let root = try? Yams.compose(yaml: text, .basic, .default) else { return nil }
        return TextOutput.string { write(root, to: &$0) }
    }

    private static func write(_ node: Node, to output: inout TextOutput) {
        switch node {
        case .scalar(let scalar):
            let text = scalar.string
            guard scalar.style == .plain else { return JSONText.writeString(text, to: &output) }
            if YAMLReader.isNull(node) {
                output.write("null")
            } else if let bool = YAMLReader.boolValue(text) {
                output.write(bool ? "true" : "false")
            } else if let integer = Int(text) {
                output.write(integer)
            } else if let number = Double(text), number.isFinite,
                text.first.map({ $0.isNumber || $0 == "-" || $0 == "." || $0 == "+" }) == true
            {
                output.write("\(number)")
            } else {
                JSONText.writeString(text, to: &output)
            }
        case .mapping(let mapping):
            output.write(byte: UInt8(ascii: "{"))
            for (offset, pair) in mapping.enumerated() {
                if offset > 0 { output.write(byte: UInt8(ascii: ",")) }
                JSONText.writeString(pair.key.scalar?.string ?? "", to: &output)
                output.write(byte: UInt8(ascii: ":"))
                write(pair.value, to: &output)
            }
            output.write(byte: UInt8(ascii: "}"))
        case .sequence(let sequence):
            output.write(byte: UInt8(ascii: "["))
            for (offset, item) in sequence.enumerated() {
                if offset > 0 { output.write(byte: UInt8(ascii: ",")) }
                write(item, to: &output)
            }
            output.write(byte: UInt8(ascii: "]"))
        case .alias:
            output.write("null")
        }
    }
}
