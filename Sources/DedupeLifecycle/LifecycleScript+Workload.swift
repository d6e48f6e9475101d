import DedupeWorkloads
import PushDedupe

extension LifecycleScript {
    /// A generated workload or imported trace as a script: the app warm (host attached), every
    /// route's tab enabled.
    ///
    /// Intents follow the truth labels: a `new` event starts one; a `dup` (or unlabelled) event
    /// belongs to its envelope's intent, else to its push's, else to the latest intent for the
    /// same route, else to the latest intent. An intent's *flow* is set by its `new` event's
    /// source, and each delivery is placed in that flow:
    ///
    /// - a push flow (any notification path) goes through the router: payloads to layer 1 and
    ///   the subject, emits to the handler. A `button` double tap or an `async_completion`
    ///   attached to it is left out (``leftOut``): a notification has no button to tap twice, and
    ///   no loading guard applies to the router.
    /// - a button flow (`button`) is taps of the button; a `second_path_owner` emit is a child's
    ///   append in any flow.
    /// - a checkout flow (`async_completion`) is taps of the checkout button, whose loading guard
    ///   applies; each becomes a tap at the event's time.
    ///
    /// Envelopes are keyed by the push's own id when the workload carries push ids (every
    /// delivery of one push is one envelope, as an app keying on the server's message id sees
    /// it), else by the workload's envelope id. `relaunch` and `background` events pass through.
    ///
    /// - Complexity: O(*n*) expected.
    package init(_ workload: Workload) {
        enum Flow { case router, button, checkout }
        var builder = LifecycleScriptBuilder(name: workload.name, summary: workload.summary, seed: 0)
        // Looked up, never iterated: hashing order cannot reach the script.
        var routeIndex: [UInt32: UInt32] = [:]
        var intentOfEnvelope: [EnvelopeID: Int] = [:]
        var intentOfPush: [UInt32: Int] = [:]
        var intentOfRoute: [UInt32: Int] = [:]
        var intentRoute: [UInt32] = []
        var intentFlow: [Flow] = []
        var eventIntent = [Int](repeating: -1, count: workload.events.count)
        var eventRoute = [UInt32](repeating: .max, count: workload.events.count)
        func label(_ event: WorkloadEvent) -> String {
            Int(event.source) < workload.sources.count ? workload.sources[Int(event.source)] : ""
        }
        for (position, event) in workload.events.enumerated() where !event.kind.isLifecycle {
            let route: UInt32
            if let known = routeIndex[event.route] {
                route = known
            } else {
                let text = Int(event.route) < workload.routes.count ? workload.routes[Int(event.route)] : String(event.route)
                route = builder.route(text)
                routeIndex[event.route] = route
            }
            let intent: Int
            if event.truth == .new || intentRoute.isEmpty {
                intent = intentRoute.count
                intentRoute.append(route)
                switch label(event) {
                case PushSource.button.rawValue, PushSource.secondPathOwner.rawValue: intentFlow.append(.button)
                case PushSource.asyncCompletion.rawValue: intentFlow.append(.checkout)
                default: intentFlow.append(.router)
                }
                intentOfRoute[route] = intent
            } else if let known = intentOfEnvelope[event.envelope] {
                intent = known
            } else if event.push != WorkloadEvent.noPush, let known = intentOfPush[event.push] {
                intent = known
            } else {
                intent = intentOfRoute[route] ?? intentRoute.count - 1
            }
            if event.kind == .payload { intentOfEnvelope[event.envelope] = intent }
            if event.push != WorkloadEvent.noPush && intentOfPush[event.push] == nil { intentOfPush[event.push] = intent }
            eventIntent[position] = intent
            eventRoute[position] = route
        }
        for (route, flow) in zip(intentRoute, intentFlow) { _ = builder.intent(wanting: flow == .checkout ? .max : route) }

        var envelopeIndex: [EnvelopeID: Int32] = [:]
        for (position, event) in workload.events.enumerated() {
            let time = event.time.nanoseconds
            if event.kind.isLifecycle {
                let kind: Input.Kind = event.kind == .relaunch ? .relaunch : .background
                builder.add(.init(time: time, kind: kind, source: builder.source(LifecycleScriptBuilder.defaultSource(of: kind))))
                continue
            }
            let intent = eventIntent[position]
            let route = eventRoute[position]
            let source = label(event)
            let sourceIndex = builder.source(source.isEmpty ? LifecycleScriptBuilder.defaultSource(of: event.kind == .payload ? .payload : .emit) : source)
            switch (event.kind, source) {
            case (.payload, PushSource.button.rawValue):
                guard intentFlow[intent] == .button else {
                    builder.leaveOut(source, reason: "a double tap attached to a push's intent: a notification has no button to tap twice")
                    continue
                }
                builder.add(.init(time: time, kind: .tap, route: route, intent: Int32(intent), source: sourceIndex))
            case (.payload, PushSource.asyncCompletion.rawValue):
                guard intentFlow[intent] == .checkout else {
                    builder.leaveOut(source, reason: "an async completion outside a checkout flow: no loading guard applies")
                    continue
                }
                builder.add(.init(time: time, kind: .checkoutTap, intent: Int32(intent), source: sourceIndex))
            case (.emit, PushSource.secondPathOwner.rawValue):
                builder.add(.init(time: time, kind: .childAppend, route: route, intent: Int32(intent), source: sourceIndex))
            default:
                let key = event.push != WorkloadEvent.noPush && Int(event.push) < workload.pushes.count
                    ? workload.pushes[Int(event.push)] : event.envelope
                let envelope: Int32
                if let known = envelopeIndex[key] {
                    envelope = known
                } else {
                    // An emit no payload created (a hand-built workload only) gets an envelope the
                    // simulator skips, like every emit of an envelope that was never created.
                    envelope = builder.envelope(route: route, intent: Int32(intent), id: key)
                    envelopeIndex[key] = envelope
                }
                builder.add(.init(
                    time: time, kind: event.kind == .payload ? .payload : .emit, route: builder.routeOfEnvelope(envelope),
                    envelope: envelope, intent: Int32(intent), source: sourceIndex))
            }
        }
        self = builder.finish()
    }
}
