import LifeSpec

/// The words LifeSpec itself writes — headings, labels, legends, captions, comments — in every
/// `Language` the tool writes: one catalog for the pages (`Glossary+Pages.swift`), the drawings and
/// sequence diagrams (`Glossary+Drawings.swift`) and DocC, so a page, its drawings and its DocC
/// article always say a thing with the same word.
///
/// Every phrase is a `switch` over the language (`pick`): a new language does not compile until
/// each phrase has its translation. Arguments are text the caller escaped already for its target
/// (Markdown on pages, plain text in drawings); the phrases themselves are trusted text.
///
/// The Chinese follows Apple's Chinese documentation; the words it must not use, and what to use
/// instead, are listed beside it (`Glossary+Forbidden.swift`) and checked by a test over every
/// phrase, as the full-width punctuation is (`ChineseTypography`).
package struct Glossary: Sendable, Hashable {
    /// The one locale decision of the tool (`LifeSpec.Language`).
    package typealias Language = LifeSpec.Language

    package let language: Language

    package init(_ language: Language) { self.language = language }

    /// The table for `locale`, as `Language(locale:)` decides it (English when unsupported).
    package init(locale: String?) { language = Language(locale: locale) }

    /// The supported language for `locale`, if any.
    package static func language(for locale: String?) -> Language? { Language.resolve(locale) }

    /// Autoclosures: only the phrase of the glossary's language is built (phrases with arguments
    /// are asked for in every table row).
    func pick(_ en: @autoclosure () -> String, _ zh: @autoclosure () -> String) -> String {
        switch language {
        case .english: en()
        case .simplifiedChinese: zh()
        }
    }

    // MARK: Words shared by pages and drawings

    /// Between the items of an inline list (names, events, effects, flags): Chinese enumerates
    /// with the enumeration comma.
    var listSeparator: String { pick(", ", "、") }
    /// After a lead-in, before what it introduces.
    var colon: String { pick(": ", "：") }
    /// What a transition's condition is called (a column, a legend entry).
    var guardWord: String { pick("guard", "条件") }
    var eventWord: String { pick("event", "事件") }

    /// A title named in running text, in the language's quotation marks.
    func quoted(_ title: String) -> String { "“" + title + "”" }

    /// A name inside a Chinese sentence: a title in Chinese quotes, so it reads as one name
    /// (`由“S1 连接场景”引发`); code as it is (`由 \`connectScene\` 引发`).
    static func quotedChinese(_ name: String) -> String {
        name.hasPrefix("`") ? name : "“" + name + "”"
    }

    /// `parts` joined as Chinese spaces them: a space where Han text meets Latin text or code
    /// (`进入 \`active\``, `保持在 Active`), none between Han characters (`保持在活跃`), so a phrase
    /// reads right whether it is given an id or a title.
    static func spacedChinese(_ parts: String...) -> String {
        func latin(_ character: Character?) -> Bool {
            guard let character, character.isASCII else { return false }
            return character.isLetter || character.isNumber || "`*_)]".contains(character)
        }
        // Ideographs only: full-width punctuation takes no space (`\`x\`：`).
        func han(_ character: Character?) -> Bool {
            guard let value = character?.unicodeScalars.first?.value else { return false }
            return (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
                || (0xF900...0xFAFF).contains(value) || (0x20000...0x2FFFF).contains(value)
        }
        var text = ""
        for part in parts where !part.isEmpty {
            let before = text.last
            let after = part.first
            if (latin(before) && han(after)) || (han(before) && (latin(after) || after == "`" || after == "*")) {
                text += " "
            }
            text += part
        }
        return text
    }
}
