#if compiler(>=6.2)
/// What both strategy protocols refine: their metatypes cross threads (a benchmark builds and
/// runs cases away from where it registered the types), so they must be sendable. Compilers
/// before Swift 6.2 have no `SendableMetatype` and treat every metatype as sendable.
public typealias StrategyMetatype = SendableMetatype
#else
public typealias StrategyMetatype = Any
#endif
