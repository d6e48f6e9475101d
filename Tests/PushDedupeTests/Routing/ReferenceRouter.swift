import PushDedupe

/// The router's rules written as plainly as possible, from `Guides/Router.md`, to check
/// `RouterCore` against: every work ever started stays in one list with a liveness flag, and each
/// rule is one branch.
struct ReferenceRouter {
    let configuration: RouterConfiguration
    var path: [String] = []
    var works: [(route: String, envelope: EnvelopeID, live: Bool)] = []
    var running: [ActionKey: Int] = [:]

    init(configuration: RouterConfiguration) {
        self.configuration = configuration
    }

    var workInFlight: [WorkToken] {
        works.indices.filter { works[$0].live }.map { WorkToken(UInt64($0)) }
    }

    func isBusy(_ key: ActionKey) -> Bool { running[key, default: 0] > 0 }

    private var reserves: Bool { configuration.consume == .reserveThenCommit }
    private var guardsRoutes: Bool { configuration.topGuard.contains(.routedPushes) }
    private var guardsButtons: Bool { configuration.topGuard.contains(.buttonPushes) }

    mutating func apply(_ event: RouterEvent<String>) -> [RouterEffect<String>] {
        switch event {
        case let .routeRequested(_, _, decision) where decision == .suppressedByWindow:
            return [.ignore(.windowDuplicate)]
        case let .routeRequested(_, _, decision) where decision == .suppressedByConsumedSet:
            return [.ignore(.consumedEnvelope)]
        case let .routeRequested(route, envelope, _):
            // The latest request cancels older work even when its screen is on top already.
            var effects: [RouterEffect<String>] = []
            if configuration.cancelsSupersededWork {
                for index in works.indices where works[index].live {
                    works[index].live = false
                    effects.append(.cancelWork(WorkToken(UInt64(index))))
                    if reserves { effects.append(.commitConsume(works[index].envelope, .superseded)) }
                }
            }
            if guardsRoutes && path.last == route {
                return effects + [.ignore(.duplicateOnTop), .commitConsume(envelope, .alreadyOnTop)]
            }
            if !reserves { effects.append(.commitConsume(envelope, .receipt)) }
            works.append((route, envelope, true))
            return effects + [.startWork(WorkToken(UInt64(works.count - 1)), route)]
        case let .buttonPushed(route):
            return pushFromView(route)
        case let .workCompleted(token):
            guard let work = end(token) else { return [.ignore(.superseded)] }
            if guardsRoutes && path.last == work.route {
                return [.ignore(.duplicateOnTop)] + (reserves ? [.commitConsume(work.envelope, .alreadyOnTop)] : [])
            }
            path.append(work.route)
            return [.append(work.route)] + (reserves ? [.commitConsume(work.envelope, .shown)] : [])
        case let .workFailed(token):
            guard let work = end(token), reserves else { return [] }
            return [.commitConsume(work.envelope, .failed)]
        case let .workCancelled(token):
            guard let work = end(token), reserves else { return [] }
            return [.commitConsume(work.envelope, .cancelled)]
        case let .userChangedPath(newPath):
            if newPath.count > path.count && Array(newPath.prefix(path.count)) == path {
                return newPath.dropFirst(path.count).flatMap { pushFromView($0) }
            }
            path = newPath
            return []
        case let .actionTriggered(key):
            if configuration.loadingGuard && isBusy(key) { return [.ignore(.inFlightAction)] }
            running[key, default: 0] += 1
            return [.startAction(key)]
        case let .actionFinished(key):
            if isBusy(key) { running[key, default: 0] -= 1 }
            return []
        }
    }

    private mutating func pushFromView(_ route: String) -> [RouterEffect<String>] {
        if guardsButtons && path.last == route { return [.ignore(.duplicateOnTop)] }
        path.append(route)
        return [.append(route)]
    }

    private mutating func end(_ token: WorkToken) -> (route: String, envelope: EnvelopeID, live: Bool)? {
        let index = Int(token.rawValue)
        guard works.indices.contains(index), works[index].live else { return nil }
        works[index].live = false
        return works[index]
    }
}
