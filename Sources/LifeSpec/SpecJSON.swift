import Foundation
import Yams

/// A spec's YAML as JSON, with scalars typed the way the loader reads them (only plain `true` and
/// `false` in any case are booleans, plain numbers are numbers, `~`/`null`/empty are null,
/// everything else — `on`, `yes`, quoted `"1"` — is a string). A JSON Schema validator then sees
/// what the loader sees; YAML 1.1 readers would turn the key `on:` into `true`.
public enum SpecJSON {
    /// The JSON text of the YAML document, or `nil` when it does not parse.
    public static func json(fromYAML text: String) -> String? {
        guard let root = try? Yams.compose(yaml: text, .basic, .default) else { return nil }
        var output = ""
        write(root, to: &output)
        return output
    }

    private static func write(_ node: Node, to output: inout String) {
        switch node {
        case .scalar(let scalar):
            let text = scalar.string
            guard scalar.style == .plain else { return string(text, to: &output) }
            if YAMLReader.isNull(node) {
                output += "null"
            } else if let bool = YAMLReader.boolValue(text) {
                output += bool ? "true" : "false"
            } else if let integer = Int(text) {
                output += String(integer)
            } else if let number = Double(text), number.isFinite, text.first.map({ $0.isNumber || $0 == "-" || $0 == "." || $0 == "+" }) == true {
                output += "\(number)"
            } else {
                string(text, to: &output)
            }
        case .mapping(let mapping):
            output += "{"
            for (offset, pair) in mapping.enumerated() {
                if offset > 0 { output += "," }
                string(pair.key.scalar?.string ?? "", to: &output)
                output += ":"
                write(pair.value, to: &output)
            }
            output += "}"
        case .sequence(let sequence):
            output += "["
            for (offset, item) in sequence.enumerated() {
                if offset > 0 { output += "," }
                write(item, to: &output)
            }
            output += "]"
        case .alias:
            output += "null"
        }
    }

    private static func string(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20: output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
