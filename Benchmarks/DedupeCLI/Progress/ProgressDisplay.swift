import DedupeCommandLine
import DedupeHarness

/// Turns the harness's progress reports into what stderr shows: on a terminal, one line
/// rewritten in place; otherwise (a file, a pipe, CI logs) a plain line at most every
/// `plainInterval` seconds. Pure: the caller passes whether stderr is a terminal and the time
/// (the reports' elapsed seconds), so tests drive it without a terminal or a clock.
///
/// The line: `[timing 120/840] marketing-burst two-layer hash-deque+set rep 3 · 1234/5411 ·
/// 0:42 elapsed · ETA 1:55`. The ETA adds, per phase, what is left of it at its measured rate: a
/// phase that counts its events (`RunProgress.phaseEvents`: correctness, timing once calibrated)
/// by its events left over its measured events per second, since its steps differ in size (a
/// case of a 10⁷-event trace beside one of a small scenario, a whole timing fork in a child
/// beside one repetition); another phase by its steps left times its mean measured step. A phase
/// with nothing measured yet counts the harness's plan for it (`RunProgress.plannedSeconds`) or,
/// failing that, the mean cost of every step so far.
struct ProgressDisplay {
    let isTerminal: Bool
    /// Columns of the terminal: the line is cut to fit, or it would wrap and stop overwriting.
    let width: Int
    let plainInterval: Double

    private var previous: RunProgress?
    private var measured: [RunPhase: (steps: Int, seconds: Double, events: Int)] = [:]
    private var phaseDone: [RunPhase: Int] = [:]
    /// Events of the finished steps of each phase.
    private var eventsDone: [RunPhase: Int] = [:]
    private var lastPlainLine: Double?
    private var showing = false

    init(isTerminal: Bool, width: Int = 80, plainInterval: Double = 5) {
        self.isTerminal = isTerminal
        self.width = max(20, width)
        self.plainInterval = plainInterval
    }

    /// What to write for `progress` (reported just before its step starts), or `nil`.
    mutating func update(_ progress: RunProgress) -> String? {
        if let previous {
            let cost = max(0, progress.elapsedSeconds - previous.elapsedSeconds)
            let sum = measured[previous.phase] ?? (0, 0, 0)
            measured[previous.phase] = (sum.steps + 1, sum.seconds + cost, sum.events + previous.stepEvents)
            eventsDone[previous.phase, default: 0] += previous.stepEvents
        }
        previous = progress
        let line = Self.line(progress, phaseDone: phaseDone[progress.phase] ?? 0, eta: eta(progress))
        phaseDone[progress.phase, default: 0] += 1
        if isTerminal {
            showing = true
            return "\r" + Self.fit(line, width: width - 1) + "\u{1B}[K"
        }
        if let lastPlainLine, progress.elapsedSeconds - lastPlainLine < plainInterval { return nil }
        lastPlainLine = progress.elapsedSeconds
        return line + "\n"
    }

    /// What to write when the run ends at `elapsedSeconds`: on a terminal, the line is replaced
    /// by a final one and ended, so what follows starts on a fresh line.
    mutating func finish(elapsedSeconds: Double) -> String? {
        guard isTerminal, showing, let previous else { return nil }
        showing = false
        return "\r" + Self.fit("\(previous.total) steps in \(Self.clock(elapsedSeconds))", width: width - 1) + "\u{1B}[K\n"
    }

    /// Seconds left, or `nil` before anything is measured.
    func eta(_ progress: RunProgress) -> Double? {
        let all = measured.values.reduce((steps: 0, seconds: 0.0)) { ($0.steps + $1.steps, $0.seconds + $1.seconds) }
        guard all.steps > 0 else { return nil }
        let overallMean = all.seconds / Double(all.steps)
        var seconds = 0.0
        for phase in RunPhase.allCases {
            let steps = progress.phaseSteps[phase] ?? 0
            let left = max(0, steps - (phaseDone[phase] ?? 0))
            guard left > 0 else { continue }
            if let events = progress.phaseEvents[phase], events > 0, let cost = measured[phase], cost.events > 0 {
                seconds += Double(max(0, events - (eventsDone[phase] ?? 0))) * cost.seconds / Double(cost.events)
            } else if let cost = measured[phase], cost.steps > 0 {
                seconds += Double(left) * cost.seconds / Double(cost.steps)
            } else if let planned = progress.plannedSeconds[phase], steps > 0 {
                seconds += planned * Double(left) / Double(steps)
            } else {
                seconds += Double(left) * overallMean
            }
        }
        return seconds
    }

    static func line(_ progress: RunProgress, phaseDone: Int, eta: Double?) -> String {
        let phaseTotal = progress.phaseSteps[progress.phase] ?? 0
        let counter = phaseTotal > 0 ? " \(min(phaseDone + 1, phaseTotal))/\(phaseTotal)" : ""
        return "[\(progress.phase.rawValue)\(counter)] \(OneLine.escaped(progress.caseLabel)) · "
            + "\(progress.completed + 1)/\(progress.total) · \(clock(progress.elapsedSeconds)) elapsed · "
            + "ETA \(eta.map(clock) ?? "…")"
    }

    /// `m:ss`, or `h:mm:ss` from an hour; NaN and negative read as 0, and anything from 10⁶
    /// hours on as 999999:59:59 (an estimate that large means nothing, and converting it to an
    /// integer must not trap).
    static func clock(_ seconds: Double) -> String {
        let whole = seconds > 0 ? Int(min(seconds, 3_599_999_999).rounded()) : 0
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let tail = (rest < 10 ? "0" : "") + "\(rest)"
        if hours > 0 { return "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + tail }
        return "\(minutes):" + tail
    }

    /// `text` cut to `width` characters with an ellipsis.
    static func fit(_ text: String, width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }
}
