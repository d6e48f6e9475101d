/// The episode shape of every lifecycle scenario, by scenario id: what `verify` enumerates.
/// Each follows the scenario's episode (`LifecycleScenarioCatalogue`, the workload catalogue);
/// its bound is stated in words.
package enum LifecycleShapeCatalogue {
    /// The shape of `scenario`, or `nil`.
    package static func shape(for scenario: String) -> LifecycleShape? {
        switch scenario {
        case "reemit-during-fetch", "envelope-reemitted": return payloadAndReemit(scenario)
        case "disabled-tab-replay": return disabledTabReplay()
        case "cold-launch-late-host": return coldLaunchLateHost()
        case "two-fetches-quick-succession": return twoFetches()
        case "checkout-double-tap": return checkoutDoubleTap()
        case "button-double-tap": return buttonDoubleTap()
        case "path-owned-twice": return pathOwnedTwice()
        case "ready-callback-replay": return readyCallbackReplay()
        case "same-payload-twice": return samePayloadTwice()
        case "retap-after-window": return retapAfterWindow()
        case "mixed-default": return mixedDefault()
        case "relaunch-mid-fetch": return relaunchMidFetch()
        case "relaunch-before-host": return relaunchBeforeHost()
        case "stale-initial-notification": return staleInitialNotification()
        default: return nil
        }
    }

    /// The shapes of every lifecycle scenario, in the matrix's order.
    package static var all: [LifecycleShape] {
        LifecycleScenarioCatalogue.all.compactMap { shape(for: $0.id) }
    }

    static func payloadAndReemit(_ scenario: String) -> LifecycleShape {
        var shape = _ShapeBuilder(scenario)
        let a = shape.intent(shape.route(1))
        let payload = shape.add(.payload, envelope: a.envelope, source: "tap")
        shape.add(.emit, envelope: a.envelope, source: "pending_route", after: [payload])
        return shape.finish(bound: "a payload, its envelope re-emitted once", backs: 1)
    }

    static func disabledTabReplay() -> LifecycleShape {
        var shape = _ShapeBuilder("disabled-tab-replay")
        let d = shape.intent(shape.route(1, tab: .disabled))
        shape.add(.payload, envelope: d.envelope, source: "tap")
        let detach = shape.add(.hostDetach)
        let attach = shape.add(.hostAttach, after: [detach])
        let detachAgain = shape.add(.hostDetach, after: [attach])
        shape.add(.hostAttach, after: [detachAgain])
        return shape.finish(
            bound: "a payload for a disabled tab (a route with no tab takes the same early return) and two detach-attach cycles",
            backs: 0)
    }

    static func coldLaunchLateHost() -> LifecycleShape {
        var shape = _ShapeBuilder("cold-launch-late-host", hostAttached: false)
        let a = shape.intent(shape.route(1))
        let payload = shape.add(.payload, envelope: a.envelope, source: "cold_launch")
        let attach = shape.add(.hostAttach)
        shape.add(.emit, envelope: a.envelope, source: "ready_callback", after: [payload])
        let detach = shape.add(.hostDetach, after: [attach])
        shape.add(.hostAttach, after: [detach])
        return shape.finish(
            bound: "a cold-launch payload, the host attaching, the ready callback (before or after the attach), a detach and a re-attach",
            backs: 1)
    }

    static func twoFetches() -> LifecycleShape {
        var shape = _ShapeBuilder("two-fetches-quick-succession")
        let a = shape.intent(shape.route(1))
        let b = shape.intent(shape.route(2))
        let first = shape.add(.payload, envelope: a.envelope, source: "tap")
        shape.add(.payload, envelope: b.envelope, source: "tap", after: [first])
        return shape.finish(bound: "two payloads for two screens", backs: 1)
    }

    static func checkoutDoubleTap() -> LifecycleShape {
        var shape = _ShapeBuilder("checkout-double-tap")
        let intent = shape.builder.intent(wanting: .max)
        let first = shape.add(.checkoutTap, intent: intent)
        shape.add(.checkoutTap, intent: intent, after: [first])
        return shape.finish(bound: "two taps of the checkout button", backs: 1)
    }

    static func buttonDoubleTap() -> LifecycleShape {
        var shape = _ShapeBuilder("button-double-tap")
        let route = shape.route(1)
        let intent = shape.builder.intent(wanting: route)
        let first = shape.add(.tap, route: route, intent: intent)
        shape.add(.tap, route: route, intent: intent, after: [first])
        // A double tap (80–300 ms) is quicker than going back.
        return shape.finish(bound: "two taps of one button", backs: 0)
    }

    static func pathOwnedTwice() -> LifecycleShape {
        var shape = _ShapeBuilder("path-owned-twice")
        let route = shape.route(1)
        let intent = shape.builder.intent(wanting: route)
        let tap = shape.add(.tap, route: route, intent: intent)
        shape.add(.childAppend, route: route, intent: intent, after: [tap])
        return shape.finish(bound: "a tap and the child's append of the same route, within a frame", backs: 0)
    }

    static func readyCallbackReplay() -> LifecycleShape {
        var shape = _ShapeBuilder("ready-callback-replay")
        let a = shape.intent(shape.route(1))
        let payload = shape.add(.payload, envelope: a.envelope, source: "cold_launch")
        shape.add(.emit, envelope: a.envelope, source: "pending_route", after: [payload])
        shape.add(.emit, envelope: a.envelope, source: "ready_callback", after: [payload])
        return shape.finish(bound: "a payload, the pending route's and the ready callback's emits", backs: 1)
    }

    static func samePayloadTwice() -> LifecycleShape {
        var shape = _ShapeBuilder("same-payload-twice")
        let route = shape.route(1)
        let a = shape.intent(route)
        let second = shape.builder.envelope(route: route, intent: a.intent)
        let first = shape.add(.payload, envelope: a.envelope, source: "tap")
        // 0.05–40 ms apart: always inside the window.
        shape.add(.payload, envelope: second, source: "cold_launch", after: [first], gap: .withinWindow(of: first))
        return shape.finish(bound: "one push as two payloads (two envelopes) inside the window", backs: 1)
    }

    static func retapAfterWindow() -> LifecycleShape {
        var shape = _ShapeBuilder("retap-after-window")
        let route = shape.route(1)
        let first = shape.intent(route)
        let retap = shape.intent(route)
        let payload = shape.add(.payload, envelope: first.envelope, source: "tap")
        shape.add(.payload, envelope: retap.envelope, source: "retap", after: [payload])
        return shape.finish(bound: "a payload and another notification for the same screen (a new intent)", backs: 1)
    }

    static func mixedDefault() -> LifecycleShape {
        var shape = _ShapeBuilder("mixed-default")
        let a = shape.route(1)
        let b = shape.route(2)
        let first = shape.intent(a)
        let secondPath = shape.builder.envelope(route: a, intent: first.intent)
        let retap = shape.intent(a)
        let other = shape.intent(b)
        let payload = shape.add(.payload, envelope: first.envelope, source: "tap")
        shape.add(.payload, envelope: secondPath, source: "foreground", gap: .withinWindow(of: payload))
        shape.add(.emit, envelope: first.envelope, source: "pending_route", after: [payload])
        shape.add(.payload, envelope: retap.envelope, source: "retap", after: [payload])
        shape.add(.payload, envelope: other.envelope, source: "tap")
        return shape.finish(
            bound: "one intent's payload, its second-path copy (before or after it, inside the window) and a pending-route re-emit, its re-tap, "
                + "and one intent for another screen",
            backs: 1)
    }

    static func relaunchMidFetch() -> LifecycleShape {
        var shape = _ShapeBuilder("relaunch-mid-fetch")
        let a = shape.intent(shape.route(1))
        let payload = shape.add(.payload, envelope: a.envelope, source: "tap")
        let background = shape.add(.background)
        shape.relaunch(after: [payload, background])
        return shape.finish(bound: "a payload, a background (before or after it), the kill and the cold launch's host attach", backs: 1)
    }

    static func relaunchBeforeHost() -> LifecycleShape {
        var shape = _ShapeBuilder("relaunch-before-host", hostAttached: false)
        let a = shape.intent(shape.route(1))
        let payload = shape.add(.payload, envelope: a.envelope, source: "cold_launch")
        shape.add(.emit, envelope: a.envelope, source: "ready_callback", after: [payload])
        shape.relaunch(after: [payload])
        return shape.finish(
            bound: "a cold-launch payload with no host, the ready callback (before or after the kill), the kill and the cold launch's host attach",
            backs: 1)
    }

    static func staleInitialNotification() -> LifecycleShape {
        var shape = _ShapeBuilder("stale-initial-notification")
        let a = shape.intent(shape.route(1))
        let payload = shape.add(.payload, envelope: a.envelope, source: "cold_launch")
        let background = shape.add(.background)
        let relaunch = shape.relaunch(after: [payload, background])
        // The SDK returns the launch notification again: the same push, so the same envelope.
        shape.add(.payload, envelope: a.envelope, source: "initial_notification", after: [relaunch])
        return shape.finish(
            bound: "a launch payload, a background, the kill, the cold launch's host attach and the same push delivered again",
            backs: 1)
    }
}
