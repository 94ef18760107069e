/// The one place the version lives: `lifespec --version` prints it, and a test checks that the
/// README's installation section (release tag, Mint line) names the same one.
public enum LifeSpecVersion {
    public static let current = "0.1.0"
}
