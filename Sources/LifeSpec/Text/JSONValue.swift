/// Minimal JSON text with keys in the order given, so output is stable byte for byte (the CLI's
/// `--format json` diagnostics and `simulate --json`).
package enum JSONValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    package var text: String { TextOutput.string { write(to: &$0) } }

    /// `scriptSafe`: fit to stand inside an HTML `<script>` element (see `JSONText`).
    package func write(to output: inout TextOutput, scriptSafe: Bool = false) {
        switch self {
        case .string(let value): JSONText.writeString(value, to: &output, scriptSafe: scriptSafe)
        case .int(let value): output.write(value)
        case .bool(let value): output.write(value ? "true" : "false")
        case .null: output.write("null")
        case .array(let items):
            output.write(byte: UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { output.write(byte: UInt8(ascii: ",")) }
                item.write(to: &output, scriptSafe: scriptSafe)
            }
            output.write(byte: UInt8(ascii: "]"))
        case .object(let pairs):
            output.write(byte: UInt8(ascii: "{"))
            for (offset, (key, value)) in pairs.enumerated() {
                if offset > 0 { output.write(byte: UInt8(ascii: ",")) }
                JSONText.writeString(key, to: &output, scriptSafe: scriptSafe)
                output.write(byte: UInt8(ascii: ":"))
                value.write(to: &output, scriptSafe: scriptSafe)
            }
            output.write(byte: UInt8(ascii: "}"))
        }
    }

    package static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
