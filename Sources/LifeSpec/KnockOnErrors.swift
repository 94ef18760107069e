/// Folds errors that only follow from another one under it. A state written one indentation
/// level off becomes an unknown key of the mapping around it (LS010), and then every transition
/// and scenario naming it, or a state nested in it, fails with "not declared" (LS101): one
/// mistake, dozens of errors. The unknown key keeps its error, gains a hint about indentation and
/// a note that counts the references it broke; those references are not listed on their own.
package enum KnockOnErrors {
    struct UnknownKey {
        let key: Located<String>
        /// The mapping it was found in, as messages name it ("the spec", "state 'active'").
        let context: String
        /// The key and the states nested under it, had it been a state.
        let stateNames: [String]
        /// Its value is a mapping of state keys only.
        let bodyLooksLikeState: Bool
    }

    struct Reference {
        let name: String
        let code: DiagnosticCode
        let location: SourceLocation
    }

    static func collapse(_ diagnostics: [Diagnostic], unknownKeys: [UnknownKey], unresolved: [Reference])
        -> [Diagnostic]
    {
        var result = diagnostics
        var folded: Set<SourceLocation> = []
        for unknown in unknownKeys {
            let names = Set(unknown.stateNames)
            let broken = unresolved.filter {
                $0.code == .unknownState && names.contains($0.name) && !folded.contains($0.location)
            }
            guard !broken.isEmpty || unknown.bodyLooksLikeState,
                let index = result.firstIndex(where: { $0.code == .unknownKey && $0.location == unknown.key.location })
            else { continue }
            let original = result[index]
            let place =
                unknown.context == "the spec"
                ? "it looks like a state: indent it under 'states:'"
                : "it looks like a state: indent it under the 'states:' of \(unknown.context) to make it a child, or one level less to make it a sibling"
            var notes = original.notes
            if !broken.isEmpty {
                let lines = broken.map { "\($0.location.line)" }
                let shown = lines.prefix(8).joined(separator: ", ") + (lines.count > 8 ? ", …" : "")
                let count = broken.count == 1 ? "1 reference" : "\(broken.count) references"
                notes.append(
                    "\(count) to it fail because of this (line\(lines.count == 1 ? "" : "s") \(shown)), not listed separately"
                )
            }
            result[index] = Diagnostic(
                original.severity, original.code, original.message + "; " + place, at: original.location, notes: notes)
            folded.formUnion(broken.map(\.location))
        }
        return result.filter { !($0.code == .unknownState && folded.contains($0.location)) }
    }

    /// With errors only in some transitions and scenarios, the machine without them is still
    /// checked (nondeterminism, eventless cycles, dead ends, reachability, the other scenarios), so
    /// one run reports those problems too. A finding the missing pieces could explain is left out:
    /// reachability and coverage once any transition is missing, a dead end in a state that lost a
    /// transition, a scenario that sends an event a missing transition handles.
    static func independentRuleDiagnostics(raw: RawSpec, resolver: SpecResolver, severity: RuleSeverity) -> [Diagnostic]
    {
        guard !resolver.hasErrorsOutsideTransitionsAndScenarios,
            !resolver.brokenTransitions.isEmpty || !resolver.brokenScenarios.isEmpty
        else { return [] }
        let dropped = resolver.brokenTransitions.sorted().map { raw.transitions[$0] }
        var partial = raw
        partial.transitions = raw.transitions.indices.filter { !resolver.brokenTransitions.contains($0) }.map {
            raw.transitions[$0]
        }
        partial.scenarios = raw.scenarios.indices.filter { !resolver.brokenScenarios.contains($0) }.map {
            raw.scenarios[$0]
        }
        var second = SpecResolver(raw: partial)
        guard let spec = second.resolve(), !second.diagnostics.hasErrors else { return [] }
        let findings = SpecRules.check(spec, raw: partial, severity: severity).diagnostics
        // States that lost a transition, with their descendants (a parent's transition applies to them).
        var lostWayOut = Set(dropped.flatMap { $0.from.map(\.value) })
        var grew = true
        while grew {
            grew = false
            for state in raw.states
            where state.parent.map(lostWayOut.contains) == true && !lostWayOut.contains(state.id.value) {
                lostWayOut.insert(state.id.value)
                grew = true
            }
        }
        // An SCXML id may hold a quote: those few are searched for as before.
        let quotedIDs = lostWayOut.filter { $0.contains("'") }
        let droppedEvents = Set(dropped.flatMap { $0.on.map(\.value) })
        let droppedSilently = dropped.contains { $0.on.isEmpty || !$0.raise.isEmpty }
        let scenarioStarts = partial.scenarios.map(\.location).sorted()
        func scenario(at location: SourceLocation) -> RawSpec.Scenario? {
            guard let start = scenarioStarts.last(where: { $0 <= location }) else { return nil }
            return partial.scenarios.first { $0.location == start }
        }
        return findings.filter { finding in
            switch finding.code {
            case .unreachableState, .uncoverableTransition:
                return dropped.isEmpty
            case .deadEnd:
                // The quoted names of the message looked up, not every lost state searched for in
                // it (N broken transitions made that N² string searches). Ids hold no quote.
                return !finding.message.split(separator: "'", omittingEmptySubsequences: false).dropFirst()
                    .dropLast().contains { lostWayOut.contains(String($0)) }
                    && !quotedIDs.contains { finding.message.contains("'\($0)'") }
            case .scenarioMismatch, .scenarioFailed:
                guard let scenario = scenario(at: finding.location) else { return dropped.isEmpty }
                return !droppedSilently && !scenario.events.contains { droppedEvents.contains($0.value) }
            default:
                return true
            }
        }
    }
}
