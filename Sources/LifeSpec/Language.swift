/// The languages the tool writes its own words in (page phrases, diagram legends, Mermaid notes)
/// and checks typography for. The one place a locale identifier is mapped to a language: every
/// renderer and rule asks `Language(locale:)`, so a page, its diagrams and the validator can
/// never disagree about what `zh-CN` or `zh-Hant` means.
public enum Language: String, Sendable, Hashable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"

    /// The supported language for `locale`, if any: exact match, then language match (`zh`,
    /// `zh-CN`, `zh-Hans-CN` → Simplified Chinese, except the Traditional scripts and regions).
    public static func resolve(_ locale: String?) -> Language? {
        guard let locale else { return nil }
        if let exact = Language(rawValue: locale) { return exact }
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        switch parts.first {
        case "en": return .english
        case "zh"
        where !parts.contains("hant") && !parts.contains("tw") && !parts.contains("hk") && !parts.contains("mo"):
            return .simplifiedChinese
        default: return nil
        }
    }

    /// The language to write in for `locale`: the supported one, else English.
    public init(locale: String?) {
        self = Self.resolve(locale) ?? .english
    }
}
