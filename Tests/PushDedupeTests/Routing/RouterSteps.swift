import PushDedupe

/// One step of a generated event sequence. Steps that depend on the path (a back swipe, an append
/// through the binding) become events only when they run; each request carries a fresh envelope,
/// as the deduplicator's test-and-set guarantees for a `.navigated` one.
enum RouterStep: CustomStringConvertible {
    case request(String, RoutingDecision)
    case button(String)
    case completed(UInt64)
    case failed(UInt64)
    case cancelled(UInt64)
    case backSwipe
    case linkAppend(String)
    case trigger
    case finish

    static let action: ActionKey = "checkout"

    /// The alphabet of the exhaustive runs: two routes, three tokens, one action.
    static let alphabet: [RouterStep] = [
        .request("A", .navigated), .request("B", .navigated), .request("A", .suppressedByWindow),
        .request("A", .suppressedByConsumedSet), .button("A"), .button("B"),
        .completed(0), .completed(1), .completed(2), .failed(0), .failed(1), .cancelled(0), .cancelled(1),
        .backSwipe, .linkAppend("A"), .trigger, .finish,
    ]

    /// The event this step is, given the path before it and the step's index in its sequence.
    func event(path: [String], index: Int) -> RouterEvent<String> {
        switch self {
        case let .request(route, decision):
            .routeRequested(route, envelope: EnvelopeID(high: 0, low: UInt64(index)), decision: decision)
        case let .button(route): .buttonPushed(route)
        case let .completed(token): .workCompleted(WorkToken(token))
        case let .failed(token): .workFailed(WorkToken(token))
        case let .cancelled(token): .workCancelled(WorkToken(token))
        case .backSwipe: .userChangedPath(Array(path.dropLast()))
        case let .linkAppend(route): .userChangedPath(path + [route])
        case .trigger: .actionTriggered(Self.action)
        case .finish: .actionFinished(Self.action)
        }
    }

    var description: String {
        switch self {
        case let .request(route, decision): "request(\(route), \(decision))"
        case let .button(route): "button(\(route))"
        case let .completed(token): "completed(\(token))"
        case let .failed(token): "failed(\(token))"
        case let .cancelled(token): "cancelled(\(token))"
        case .backSwipe: "backSwipe"
        case let .linkAppend(route): "linkAppend(\(route))"
        case .trigger: "trigger"
        case .finish: "finish"
        }
    }
}

extension RouterConfiguration {
    /// Every combination of the switches: 2 × 2 × 4 × 2.
    static var everyCombination: [RouterConfiguration] {
        var all: [RouterConfiguration] = []
        for consume in ConsumeTiming.allCases {
            for cancels in [true, false] {
                for topGuard in [[], TopOfStackGuard.buttonPushes, .routedPushes, .everyPush] as [TopOfStackGuard] {
                    for loadingGuard in [true, false] {
                        var configuration = RouterConfiguration()
                        configuration.consume = consume
                        configuration.cancelsSupersededWork = cancels
                        configuration.topGuard = topGuard
                        configuration.loadingGuard = loadingGuard
                        all.append(configuration)
                    }
                }
            }
        }
        return all
    }
}
