import PushDedupe

/// The actions under the router's loading guard that a workload records: each tap that starts
/// one, how it ended, and which payloads its completion made. The guarded replay drives the
/// shipped ``RouterCore`` with these records, so its loading guard holds exactly as long as each
/// action ran. Sparse beside the events, as ``Workload/recordedSuppressions`` is: a workload
/// without taps carries none, and the events' columns stay as they are.
///
/// Actions are numbered densely in order of their start; ``records`` keep the order they
/// happened in among the events (``ActionRecord/position``).
public struct ActionLog: Sendable, Equatable {
    /// Action keys (`checkout`), indexed by ``ActionRecord/key``.
    @usableFromInline package var keys: [String] = []
    /// Each action's token, as a trace names it (`a17`), indexed by action number.
    @usableFromInline package var tokens: [String] = []
    /// The starts, finishes and cancels, in the order they happened.
    @usableFromInline package var records: [ActionRecord] = []
    /// The payloads an action's completion made, ascending by event.
    @usableFromInline package var completions: [ActionCompletion] = []

    package init() {}

    /// Whether the workload records no action at all.
    @inlinable public var isEmpty: Bool { records.isEmpty }

    /// Number of actions started.
    @inlinable public var actionCount: Int { tokens.count }

    /// The log of the events kept by a selection: `newPosition[old]` is the number of kept events
    /// before old event `old`, and `kept[old]` whether it was kept. Records after the last kept
    /// event are dropped: nothing they could act on follows them.
    package func selecting(newPosition: [Int], kept: [Bool]) -> ActionLog {
        var selected = self
        let last = kept.lastIndex(of: true) ?? -1
        selected.records = records.filter { $0.position <= last }.map { record in
            var record = record
            record.position = newPosition[record.position]
            return record
        }
        selected.completions = completions.filter { $0.event <= last && kept[$0.event] }.map {
            ActionCompletion(event: newPosition[$0.event], action: $0.action)
        }
        return selected
    }
}

/// One step of an action's life, as the router hears it.
public struct ActionRecord: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// A tap triggered the action (``RouterEvent/actionTriggered(_:)``): the core starts it,
        /// or ignores the tap while an action with the same key runs.
        case started
        /// The action's operation returned or threw (``RouterEvent/actionFinished(_:)``).
        case finished
        /// The action's task was cancelled. The core hears it as the action's end, as
        /// ``NavigationRouter`` reports every exit.
        case cancelled

        /// The trace's spelling (`Guides/TraceFormat.md` § Actions).
        package var traceKind: String {
            switch self {
            case .started: TraceFormat.actionStartKind
            case .finished: TraceFormat.actionFinishKind
            case .cancelled: TraceFormat.actionCancelKind
            }
        }
    }

    /// The number of events before it: it happened after event `position - 1` and before event
    /// `position`.
    public var position: Int
    public var time: Timestamp
    public var kind: Kind
    /// The action's number, in order of start.
    public var action: UInt32
    /// Index into ``ActionLog/keys``.
    public var key: UInt32
}

/// A payload an action's completion made: its event and the action.
public struct ActionCompletion: Sendable, Hashable {
    public var event: Int
    public var action: UInt32
}
