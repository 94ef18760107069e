/// Every diagnostic code the tool emits. Codes are stable: once published, a code keeps its
/// meaning, so scripts and editors can match on it. The README lists them.
public enum DiagnosticCode: String, Sendable, Hashable, Codable, CaseIterable {
    // Input: files and YAML
    case unreadableFile = "LS001"
    case yamlSyntax = "LS002"
    case inputLimit = "LS003"
    case duplicateKey = "LS004"
    /// An output file the command was told to write cannot be written (a missing folder, no permission).
    case unwritableFile = "LS005"
    /// A file a spec names (an API catalog, a part) resolves outside the project, or through a link out of it.
    case outsideProject = "LS006"
    // Structure
    case unknownKey = "LS010"
    case wrongType = "LS011"
    case missingKey = "LS012"
    case invalidValue = "LS013"
    case unsupportedVersion = "LS014"
    case controlCharacters = "LS015"
    case duplicateID = "LS020"
    // References
    case unknownState = "LS101"
    case unknownEvent = "LS102"
    case unknownCallback = "LS103"
    case unknownNotification = "LS104"
    case unknownFlag = "LS105"
    case unknownSource = "LS106"
    case unknownLocale = "LS107"
    case unknownPlatform = "LS108"
    case unknownRelatedSpec = "LS109"
    case unknownFact = "LS114"
    /// A modelling note's `about:` names no state, event, flag, callback or notification.
    case unknownElement = "LS115"
    // State graph
    case compoundWithoutInitial = "LS110"
    case invalidParallel = "LS111"
    case misplacedHistory = "LS112"
    case invalidTargetSet = "LS113"
    case unreachableState = "LS120"
    case deadEnd = "LS121"
    case uncoverableTransition = "LS122"
    case unreachableRegion = "LS123"
    case unrestorableHistory = "LS124"
    case unhandledDoneEvent = "LS125"
    /// A transition without `to` and without actions from a leaf state: likely a forgotten target.
    case transitionDoesNothing = "LS126"
    case nondeterminism = "LS130"
    case eventlessCycle = "LS131"
    case unsatisfiableGuard = "LS132"
    case guardSyntax = "LS133"
    case notificationPostedTwice = "LS140"
    case sharedName = "LS141"
    // Text
    case missingTranslation = "LS150"
    case chinesePunctuation = "LS151"
    /// A state, event or flag a drawing shows has no title, and the spec declares a locale whose
    /// drawings show titles only.
    case missingDrawingTitle = "LS152"
    // Scenarios
    case scenarioMismatch = "LS160"
    case scenarioFailed = "LS161"
    // Platform API catalog
    case unknownAPIName = "LS170"
    // SCXML input
    /// An SCXML element, attribute or expression outside the subset LifeSpec runs (named in the message).
    case unsupportedSCXML = "LS180"
    /// The SCXML file is not well-formed XML.
    case xmlSyntax = "LS181"
    // Parts (system specs)
    /// A part names a spec that is not beside the system spec.
    case unknownPartSpec = "LS190"
    /// A part's spec cannot be a part: it has errors of its own, or parts of its own (no nesting).
    case invalidPart = "LS191"
    /// A part's name, or an id of the system's own, collides with the namespace parts create.
    case partNameClash = "LS192"
    /// `A.something` names no state, event, callback, notification or flag of part `A`.
    case unknownPartMember = "LS193"
    /// The system's own transition leaves or enters a part's state instead of raising its events.
    case partBoundary = "LS194"
    // Rendering
    case renderFailed = "LS200"
    // Traces (`check-trace`)
    /// A log line names no callback or notification of the spec.
    case unknownTraceName = "LS210"
    /// A log line names a callback or notification outside the set `--observe` declares.
    case unobservedTraceName = "LS211"
    /// A log line the spec does not allow where it comes: the log does not conform.
    case traceDeviation = "LS212"
}
