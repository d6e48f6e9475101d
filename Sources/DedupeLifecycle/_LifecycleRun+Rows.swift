extension _LifecycleRun {
    /// What the run knows of one envelope.
    struct EnvelopeRow {
        var created = false
        var handlerRuns: UInt8 = 0
        var lastRun = HandlerRun.none
        var consumeOrigin = ConsumeOrigin.none
        /// The intent the envelope was consumed for, and the relaunch count then.
        var consumedForIntent: Int32 = -1
        var consumedAtRelaunch: Int32 = 0
    }

    /// One task, a detail fetch or a checkout.
    struct TaskRow {
        var kind: TaskKind
        var intent: Int32
        var route: UInt32
        var envelope: Int32
        /// The router's work token of a detail fetch, -1 for a checkout.
        var work: Int32
        var state = TaskState.running
        var cancelRequested = false
        var willFail: Bool
        /// The mechanism of the input that started the task.
        var source: UInt16
        /// Set when the task should never have started: the rule that let it (a handler run the
        /// consumed set should have stopped, a checkout the loading guard should have ignored).
        var startRule: FailureRule?
        /// A newer detail fetch started while this one was live, and was not allowed to cancel it.
        var outlived = false
    }

    /// One intent: what the user or the server wanted shown, and what became of it.
    struct IntentRow {
        var started = false
        var served = false
        /// Served by a push of its own task or tap (not by its screen being on top already).
        var servedByOwnPush = false
        var screen = UInt32.max
        var superseded = false
        var left = false
        var fetchFailed = false
        var runningTasks: Int32 = 0
        /// Some delivery of the intent passed layer 1.
        var routed = false
        /// The intent's first input went to the router (a payload or an emit), not a tap.
        var viaRouter = false
        /// The latest setback that could leave the intent unserved, and the mechanism behind it.
        var setbackRule: FailureRule?
        var setbackSource: UInt16 = 0
    }
}
