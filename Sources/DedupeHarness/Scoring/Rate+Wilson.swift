extension Rate {
    /// `count` out of `total` with its 95% Wilson score interval (z = 1.959964).
    ///
    /// Unlike the normal approximation, the Wilson interval stays inside [0, 1] and is
    /// informative at 0 of n: 0 of 100 gives [0, 0.0370]. A `total` of 0 gives the uninformative
    /// [0, 1] around a value of 0.
    ///
    /// - Complexity: O(1).
    package init(wilson count: Int, of total: Int) {
        guard total > 0 else {
            self.init(count: count, total: total, value: 0, lower95: 0, upper95: 1)
            return
        }
        let z = 1.959_963_984_540_054
        let n = Double(total)
        let p = Double(count) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let halfWidth = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        self.init(
            count: count, total: total, value: p,
            lower95: count == 0 ? 0 : max(0, centre - halfWidth),
            upper95: count == total ? 1 : min(1, centre + halfWidth))
    }
}
