import PushDedupe

/// A strategy's declared ``Guarantee`` as the results file records it.
package struct GuaranteeRecord: Codable, Sendable, Equatable, Hashable {
    /// `exact`, `exact-forgets-oldest`, `exact-forgets-after-retention`, `misses-only`, `may-drop`.
    package var guaranteeClass: Guarantee.Class
    /// `never`, `after-capacity`, `after-time` or `any-time`.
    package var forgetting: String
    /// `after-time` only: the fraction of the time parameter (retention, or the window length
    /// for a window) the strategy is exact for.
    package var timeFraction: Double?

    package init(_ guarantee: Guarantee) {
        guaranteeClass = guarantee.guaranteeClass
        switch guarantee.forgetting {
        case .never: forgetting = "never"
        case .afterCapacity: forgetting = "after-capacity"
        case .afterTime(let fraction): forgetting = "after-time"; timeFraction = fraction
        case .anyTime: forgetting = "any-time"
        }
    }

    /// The library value this record describes, or `nil` for an unknown `forgetting`.
    package var guarantee: Guarantee? {
        switch forgetting {
        case "never": return Guarantee(guaranteeClass, forgetting: .never)
        case "after-capacity": return Guarantee(guaranteeClass, forgetting: .afterCapacity)
        case "after-time": return Guarantee(guaranteeClass, forgetting: .afterTime(fraction: timeFraction ?? 1))
        case "any-time": return Guarantee(guaranteeClass, forgetting: .anyTime)
        default: return nil
        }
    }

    /// `exact-forgets-after-retention (exact for 0.5 × window)`, or the class name.
    package var text: String {
        guarantee?.description ?? guaranteeClass.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case guaranteeClass = "class"
        case forgetting, timeFraction
    }
}
