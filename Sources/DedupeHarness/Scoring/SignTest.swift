import Foundation

/// The exact two-sided sign test (McNemar's exact test) on discordant pairs.
package enum SignTest {
    /// The two-sided p-value of `worse` discordant pairs against `better` under the null
    /// hypothesis that either direction is equally likely: `min(1, 2·P(X ≤ min(worse, better)))`
    /// for X ~ Binomial(worse + better, ½). 1 when there are no discordant pairs.
    ///
    /// The tail is summed exactly in log space: log C(n, k) is built term by term from
    /// log C(n, 0) = 0 with log C(n, k + 1) = log C(n, k) + log((n − k) / (k + 1)), and the terms
    /// are added with the log-sum-exp trick, so n in the millions neither overflows nor
    /// underflows.
    ///
    /// - Complexity: O(min(worse, better)).
    package static func twoSidedP(_ worse: Int, _ better: Int) -> Double {
        let n = worse + better
        guard n > 0, worse >= 0, better >= 0 else { return 1 }
        let smaller = min(worse, better)
        let logHalfToTheN = Double(n) * -log(2.0)
        var logChoose = 0.0
        var logTerms: [Double] = []
        logTerms.reserveCapacity(smaller + 1)
        for k in 0...smaller {
            if k > 0 { logChoose += log(Double(n - k + 1)) - log(Double(k)) }
            logTerms.append(logChoose + logHalfToTheN)
        }
        let largest = logTerms.max()!
        let sum = logTerms.reduce(0) { $0 + exp($1 - largest) }
        let logTail = largest + log(sum)
        return min(1, exp(logTail + log(2.0)))
    }
}
