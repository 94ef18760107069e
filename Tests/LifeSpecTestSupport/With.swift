/// `value` with `change` applied: options built inside one expression, as
/// `with(DiagramOptions()) { $0.detail = .states }` (the option types are set by name).
public func with<Value>(_ value: Value, _ change: (inout Value) -> Void) -> Value {
    var value = value
    change(&value)
    return value
}
