/// The one function that names a case, wherever it is shown: progress lines, error messages, the
/// `reference` columns, report tables, `compare`. Reports never parse a label back; they group by
/// the fields it is built from.
public enum CaseLabel {
    /// `marketing-burst two-layer hash-deque+recent-ids (N = 10) [snapshot]`: the parts given, in
    /// that order. An SDK set carries the constant it ran at (``StrategyCatalogue`` registers
    /// `recent-ids` at two), so its rows read apart; a case with no strategy reads `none`.
    /// `separator` joins the layers (`hash-deque + set` in prose).
    public static func text(
        workload: String? = nil, mode: String? = nil, window: String?, consumed: String?, parameters: CaseParameters,
        snapshot: Bool = false, separator: String = "+"
    ) -> String {
        let layers = [window, consumed.map { id in
            _SDKConsumedSets.constant(of: id, parameters).map { "\(id) (\($0))" } ?? id
        }].compactMap { $0 }
        let strategies = layers.isEmpty ? "none" : layers.joined(separator: separator)
        return ([workload, mode].compactMap { $0 } + [strategies]).joined(separator: " ") + (snapshot ? " [snapshot]" : "")
    }
}

extension CaseResult {
    /// `hash-deque+set`, `ring-buffer`, `recent-ids (N = 10)`, or `set`: the strategies this case
    /// ran, an SDK set with the constant it ran at, and `[snapshot]` when its state was restored
    /// at each relaunch.
    public var strategyLabel: String {
        CaseLabel.text(window: window, consumed: consumed, parameters: parameters, snapshot: isSnapshotPersistence)
    }

    /// `marketing-burst two-layer hash-deque+set`: the case named within the run.
    public var label: String {
        CaseLabel.text(
            workload: workload, mode: mode, window: window, consumed: consumed, parameters: parameters,
            snapshot: isSnapshotPersistence)
    }

    /// Whether the consumed set was restored from a snapshot at each relaunch (otherwise its
    /// state was lost, or there was no relaunch).
    public var isSnapshotPersistence: Bool { persistence == CasePersistence.snapshot.rawValue }
}
