public import ArgumentParser
public struct LifeSpecCommand: ParsableCommand {
    public init() {}
    public func run() throws {}
}
