import DedupeWorkloads
import PushDedupe

/// A discrete-event simulation of both articles' lifecycles: the push router (paths, host, early
/// returns, detail fetch, `inFlightTask`) and the NavigationStack (a path the user goes back
/// through, button taps, an async checkout, one or two path owners), under one
/// ``LifecyclePolicy``, with process death at `relaunch` inputs under the configured
/// ``Persistence``. See `Guides/Policies.md` for the model and every count.
///
/// The router's and the view's decisions (every push, the cancel of a superseded fetch, the
/// loading guard) are taken by the library's shipped `RouterCore`, configured from the policy
/// (``LifecyclePolicy/routerConfiguration``); the simulator supplies the user, the network, the
/// process and the ledger, and counts.
///
/// Generic over layer 1 (`W`) and layer 2 (`C`): no existential and no closure per input, and
/// every buffer is sized from the script before the run, so the loop allocates nothing per
/// input (a failure's cause goes into a short list). Time is simulated and all randomness comes
/// from `SplitMix64` streams seeded from `seed`: a fetch's latency and outcome are keyed by the
/// input that started it, so every variant sees the same network on one script.
///
/// ```swift
/// let simulator = try LifecycleSimulator(
///     window: PublishedLiteralWindow(configuration: .init()), consumed: UnboundedSet(configuration: .init()),
///     policy: PolicyVariant.keepInFlight.policy, configuration: LifecycleConfiguration(), seed: 42)
/// let counts = simulator.run(script)
/// ```
package struct LifecycleSimulator<W: FingerprintWindow, C: ConsumedSet> {
    package let policy: LifecyclePolicy
    package let configuration: LifecycleConfiguration
    package let seed: UInt64
    private let window: W
    private let consumed: C

    /// Builds a simulator around fresh strategies; every run starts from them as given.
    ///
    /// - Throws: ``LifecycleConfigurationError`` for a bad `configuration`.
    package init(
        window: W, consumed: C, policy: LifecyclePolicy, configuration: LifecycleConfiguration, seed: UInt64
    ) throws(LifecycleConfigurationError) {
        try configuration.validate()
        self.window = window
        self.consumed = consumed
        self.policy = policy
        self.configuration = configuration
        self.seed = seed
    }

    /// Runs `script` to the end (every task completes, fails, is cancelled or killed; with
    /// scripted scheduling, a task the script never ends stays unfinished) and counts.
    ///
    /// - Complexity: O(*n* log *n*) in the inputs (the completion queue); with two path owners,
    ///   an owner's `path.last` scan is O(depth).
    package func run(_ script: LifecycleScript) -> LifecycleCounts {
        outcome(script).counts
    }

    /// Runs `script` like ``run(_:)`` and also says what caused every failure.
    package func outcome(_ script: LifecycleScript) -> LifecycleOutcome {
        var state = makeRun(script)
        state.run(script)
        return LifecycleOutcome(
            counts: state.counts, causes: state.causes.labelled(script.sources),
            firstInvalidTaskEnd: state.firstInvalidTaskEnd >= 0 ? state.firstInvalidTaskEnd : nil)
    }

    /// Runs `script` like ``run(_:)`` and also returns every push and the final path, for
    /// invariant checks.
    func runRecording(_ script: LifecycleScript) -> (counts: LifecycleCounts, pushes: [_DwellingPath.Entry], path: [_DwellingPath.Entry]) {
        var state = makeRun(script)
        state.pushLog = []
        state.pushLog?.reserveCapacity(2 * script.inputs.count + 16)
        state.run(script)
        return (state.counts, state.pushLog ?? [], state.path.screens)
    }

    func makeRun(_ script: LifecycleScript) -> _LifecycleRun<W, C> {
        _LifecycleRun(script: script, window: window, consumed: consumed, policy: policy, configuration: configuration, seed: seed)
    }
}

/// The counts of one run, the cause of every failure in them, and the first scripted task end
/// that named a task not running.
package struct LifecycleOutcome: Sendable, Equatable {
    package var counts: LifecycleCounts
    /// Per failure column, the causes add up to the column's count.
    package var causes: [FailureCause]
    /// Index into the script's inputs, or `nil`.
    package var firstInvalidTaskEnd: Int?
}
