#if canImport(SwiftUI)
import SwiftUI

// The SwiftUI glue: no logic of its own, every decision is the core's. It cannot be built on
// Linux, so it stays this small.

/// SwiftUI re-renders when the router announces a change; `NavigationRouter.send` announces
/// before every event.
extension NavigationRouter: ObservableObject {
    func _announceChange() {
        objectWillChange.send()
    }
}

extension NavigationRouter {
    /// For `NavigationStack(path: router.pathBinding)`: reads the router's path; the view's
    /// writes (a back swipe, `NavigationLink(value:)`) go through ``userChangedPath(to:)``.
    public var pathBinding: Binding<[Route]> {
        Binding(get: { self.path }, set: { self.userChangedPath(to: $0) })
    }
}

/// A button whose action runs under the router's loading guard, disabled while it runs:
/// `RouterActionButton("checkout", router: router) { try await checkout() } label: { Text("Pay") }`.
public struct RouterActionButton<Route: Hashable & Sendable, Ledger: RouteConsumeLedger, Label: View>: View {
    @ObservedObject private var router: NavigationRouter<Route, Ledger>
    private let key: ActionKey
    private let operation: @MainActor () async throws -> Void
    private let label: Label

    public init(
        _ key: ActionKey, router: NavigationRouter<Route, Ledger>,
        operation: @escaping @MainActor () async throws -> Void, @ViewBuilder label: () -> Label
    ) {
        self.router = router
        self.key = key
        self.operation = operation
        self.label = label()
    }

    public var body: some View {
        Button { router.run(action: key, operation: operation) } label: { label }
            .disabled(router.isBusy(key))
    }
}
#endif
