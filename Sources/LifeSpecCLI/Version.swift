/// The one place the version lives: `lifespec --version` prints it, and a test checks that the
/// README's installation section (release tag, Mint line) names the same one.
package enum LifeSpecVersion {
    package static let current = "0.1.0"
}
