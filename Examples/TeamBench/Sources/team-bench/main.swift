import DedupeBench

// The team's strategies beside the library's; every verb of `dedupe-bench` runs with them.
DedupeBench.main(adding: [
    .window(RouteDateWindow.self, reads: [.windowLength], summary: "The team's [String: Date] of routes, as shipped"),
    .consumedSet(LastHandledIDSet.self, reads: [], summary: "The team's lastHandledID: one slot"),
    .pipeline(TeamRouterDedupe.self, reads: [.windowLength], summary: "The team's router dedupe as one type, in the published shape"),
    .window(GlobalDebounceWindow.self, reads: [.windowLength], summary: "A debounce of every push, whatever its screen (wrong on purpose)"),
])
