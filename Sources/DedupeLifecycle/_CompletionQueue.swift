/// The pending completions of async tasks: a binary min-heap of (time, task) with its storage
/// reserved up front, so a run adds no allocation per task. Ties complete in start order.
struct _CompletionQueue {
    private var times: [Int64] = []
    private var tasks: [Int32] = []

    init(capacity: Int) {
        times.reserveCapacity(capacity)
        tasks.reserveCapacity(capacity)
    }

    var isEmpty: Bool { times.isEmpty }

    /// The earliest completion time, `Int64.max` when empty.
    var nextTime: Int64 { times.first ?? .max }

    private func less(_ a: Int, _ b: Int) -> Bool {
        (times[a], tasks[a]) < (times[b], tasks[b])
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        times.swapAt(a, b)
        tasks.swapAt(a, b)
    }

    /// - Complexity: O(log *n*).
    mutating func insert(task: Int32, at time: Int64) {
        times.append(time)
        tasks.append(task)
        var child = times.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { break }
            swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest task.
    ///
    /// - Precondition: not empty.
    /// - Complexity: O(log *n*).
    mutating func removeFirst() -> Int32 {
        let first = tasks[0]
        let last = times.count - 1
        swapAt(0, last)
        times.removeLast()
        tasks.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < times.count else { break }
            var smallest = left
            if left + 1 < times.count && less(left + 1, left) { smallest = left + 1 }
            guard less(smallest, parent) else { break }
            swapAt(smallest, parent)
            parent = smallest
        }
        return first
    }
}
