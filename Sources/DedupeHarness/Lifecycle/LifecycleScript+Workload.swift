import DedupeWorkloads
import PushDedupe

extension LifecycleScript {
    /// A generated workload or imported trace as a script: the app warm (host attached), every
    /// route's tab enabled.
    ///
    /// Payloads go to the router (layer 1, then the subject), except those labelled `button`,
    /// which are taps of an in-app button; emits go to the router, except those labelled
    /// `second_path_owner`, which are a child's append. Intents follow the truth labels: a `new`
    /// event starts one; a `dup` (or unlabelled) event belongs to its envelope's intent, else to
    /// the latest intent for the same route, else to the latest intent. A relaunch is left out:
    /// the lifecycle model's process never dies (its cold launch is a host attaching late).
    ///
    /// - Complexity: O(*n*) expected.
    public init(_ workload: Workload) {
        var builder = LifecycleScriptBuilder(name: workload.name, summary: workload.summary, seed: 0)
        // Looked up, never iterated: hashing order cannot reach the script.
        var routeIndex: [UInt32: UInt32] = [:]
        var envelopeIndex: [EnvelopeID: Int32] = [:]
        var intentOfRoute: [UInt32: Int32] = [:]
        var latest: Int32 = -1
        for event in workload.events where !event.kind.isLifecycle {
            let route: UInt32
            if let known = routeIndex[event.route] {
                route = known
            } else {
                let label = Int(event.route) < workload.routes.count ? workload.routes[Int(event.route)] : String(event.route)
                route = builder.route(label)
                routeIndex[event.route] = route
            }
            let source = Int(event.source) < workload.sources.count ? workload.sources[Int(event.source)] : ""
            let intent: Int32
            if event.truth == .new || latest < 0 {
                intent = builder.intent(wanting: route)
                latest = intent
                intentOfRoute[route] = intent
            } else if let envelope = envelopeIndex[event.envelope] {
                intent = builder.intentOfEnvelope(envelope)
            } else {
                intent = intentOfRoute[route] ?? latest
            }
            let time = event.time.nanoseconds
            switch (event.kind, source) {
            case (.payload, PushSource.button.rawValue):
                builder.add(.init(time: time, kind: .tap, route: route, intent: intent))
            case (.emit, PushSource.secondPathOwner.rawValue):
                builder.add(.init(time: time, kind: .childAppend, route: route, intent: intent))
            case (.payload, _):
                let envelope = builder.envelope(route: route, intent: intent, id: event.envelope)
                envelopeIndex[event.envelope] = envelope
                builder.add(.init(time: time, kind: .payload, route: route, envelope: envelope, intent: intent))
            case (.emit, _), (.relaunch, _), (.background, _):
                let envelope: Int32
                if let known = envelopeIndex[event.envelope] {
                    envelope = known
                } else {
                    // No payload created it (a hand-built workload only): the simulator skips it,
                    // like every emit of an envelope that was never created.
                    envelope = builder.envelope(route: route, intent: intent, id: event.envelope)
                    envelopeIndex[event.envelope] = envelope
                }
                builder.add(.init(time: time, kind: .emit, route: route, envelope: envelope, intent: builder.intentOfEnvelope(envelope)))
            }
        }
        self = builder.finish()
    }
}
