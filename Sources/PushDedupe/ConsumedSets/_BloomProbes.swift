// Internals shared by the filters: probe positions, the bit array behind `bloom` and
// `aging-bloom`, configuration checks, and the few transcendental functions sizing needs.
// None of it is API.

/// The Kirsch–Mitzenmacher probe sequence of one id: gᵢ = h1 + i·h2 (mod 2⁶⁴), mapped onto
/// `0..<range` by multiply-shift (the high 64 bits of gᵢ·range) instead of a division.
///
/// Both halves come from `EnvelopeID.hash64`, never from `Hasher`, so a run's bit positions are
/// the same on every machine. `h2` is that hash rotated by 32 bits (its well-mixed low half
/// becomes the high half the positions are read from), forced odd so the stride is never zero; a
/// second `mix64` would cost about 2 ns per consume and measured no better. A stride within
/// 2⁶⁴/range of zero still crowds the probes together; that happens to about 2 ids in `range`,
/// which changes the false-positive rate by less than 2/range.
@usableFromInline
internal struct _BloomProbes {
    @usableFromInline let h1: UInt64
    @usableFromInline let h2: UInt64

    @inlinable @inline(__always)
    init(_ id: EnvelopeID) {
        let hash = id.hash64
        h1 = hash
        h2 = (hash &>> 32 | hash &<< 32) | 1
    }

    /// The `index`-th probe, in `0..<range`.
    @inlinable @inline(__always)
    func position(_ index: Int, in range: Int) -> Int {
        let g = h1 &+ UInt64(truncatingIfNeeded: index) &* h2
        return Int(truncatingIfNeeded: g.multipliedFullWidth(by: UInt64(truncatingIfNeeded: range)).high)
    }
}

/// A fixed bit array with k probes per id, counting its set bits as it goes so the false-positive
/// rate at the current fill is O(1) to report.
///
/// A filter that is cleared over and over (an aging generation) can log the words it dirties, up
/// to `dirtyLogCapacity` of them: clearing a sparse array then zeroes just those words instead of
/// wiping all of it, which is what rotation costs on quiet traffic.
@usableFromInline
internal struct _BloomBits: Sendable {
    @usableFromInline var words: [UInt64]
    @usableFromInline let bitCount: Int
    @usableFromInline let hashCount: Int
    @usableFromInline var setBits: Int
    /// Indexes of the words that went from zero to non-zero since the last clear, while they fit.
    /// Empty for a filter that never logs; such a filter does not count dirtied words either.
    @usableFromInline var dirtyLog: [Int32]
    /// Words dirtied since the last clear (0 without a log); above `dirtyLog.count` the log is
    /// incomplete.
    @usableFromInline var dirtyWords: Int

    /// `bitCount` must be a positive multiple of 64; `BloomSizing` guarantees it.
    init(bitCount: Int, hashCount: Int, dirtyLogCapacity: Int = 0) {
        self.words = Array(repeating: 0, count: bitCount / 64)
        self.bitCount = bitCount
        self.hashCount = hashCount
        self.setBits = 0
        self.dirtyLog = Array(repeating: 0, count: dirtyLogCapacity)
        self.dirtyWords = 0
    }

    @inlinable
    func contains(_ probes: _BloomProbes) -> Bool {
        words.withUnsafeBufferPointer { words in
            for index in 0..<hashCount {
                let bit = probes.position(index, in: bitCount)
                if words[bit &>> 6] & (1 &<< UInt64(bit & 63)) == 0 { return false }
            }
            return true
        }
    }

    /// Sets the id's bits and returns whether all of them were already set.
    @inlinable
    mutating func insert(_ probes: _BloomProbes) -> Bool {
        let bitCount = self.bitCount
        let hashCount = self.hashCount
        let newlySet: Int
        if dirtyLog.isEmpty {
            // A filter that never logs (plain `bloom`) skips the dirty-word bookkeeping.
            newlySet = words.withUnsafeMutableBufferPointer { words in
                var newlySet = 0
                for index in 0..<hashCount {
                    let bit = probes.position(index, in: bitCount)
                    let shift = UInt64(bit & 63)
                    let word = words[bit &>> 6]
                    // Branch-free: 1 when the bit was clear.
                    newlySet &+= Int(truncatingIfNeeded: (~word &>> shift) & 1)
                    words[bit &>> 6] = word | (1 &<< shift)
                }
                return newlySet
            }
        } else {
            var dirtyWords = self.dirtyWords
            newlySet = words.withUnsafeMutableBufferPointer { words in
                dirtyLog.withUnsafeMutableBufferPointer { log in
                    var newlySet = 0
                    for index in 0..<hashCount {
                        let bit = probes.position(index, in: bitCount)
                        let shift = UInt64(bit & 63)
                        let word = words[bit &>> 6]
                        if word == 0 {
                            if dirtyWords < log.count { log[dirtyWords] = Int32(truncatingIfNeeded: bit &>> 6) }
                            dirtyWords &+= 1
                        }
                        newlySet &+= Int(truncatingIfNeeded: (~word &>> shift) & 1)
                        words[bit &>> 6] = word | (1 &<< shift)
                    }
                    return newlySet
                }
            }
            self.dirtyWords = dirtyWords
        }
        setBits &+= newlySet
        return newlySet == 0
    }

    /// Clears every bit in place, keeping the storage: only the logged words when the log holds
    /// them all, otherwise (or without a log) the whole array.
    ///
    /// - Complexity: O(dirtied words) when logged, else O(m/64).
    @inlinable
    mutating func removeAll() {
        if !dirtyLog.isEmpty && dirtyWords <= dirtyLog.count {
            for index in dirtyLog[..<dirtyWords] { words[Int(index)] = 0 }
        } else {
            words.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        dirtyWords = 0
        setBits = 0
    }

    /// The chance that a never-inserted id finds all its bits set: (set bits / m)ᵏ. Exact for the
    /// current contents if the k probes were independent; double hashing is within O(1/m) of it.
    @usableFromInline
    var falsePositiveRate: Double {
        DeterministicMath.power(Double(setBits) / Double(bitCount), hashCount)
    }

    /// Bytes of the bit array and the dirty-word log.
    @usableFromInline
    var footprint: Int { words.count * MemoryLayout<UInt64>.stride + dirtyLog.count * MemoryLayout<Int32>.stride }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    func _checkInvariants() {
        precondition(bitCount > 0 && bitCount == words.count * 64, "bit count out of step with the words")
        precondition(hashCount >= 1, "a filter needs at least one probe")
        precondition(setBits == words.reduce(0) { $0 + $1.nonzeroBitCount }, "set-bit tally drifted")
        guard !dirtyLog.isEmpty else {
            precondition(dirtyWords == 0, "a filter without a log counted dirty words")
            return
        }
        precondition(dirtyWords == words.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }, "dirty-word tally drifted")
        if dirtyWords <= dirtyLog.count {
            precondition(Set(dirtyLog[..<dirtyWords]).count == dirtyWords, "a word logged twice")
            precondition(dirtyLog[..<dirtyWords].allSatisfy { words[Int($0)] != 0 }, "a logged word is clear")
        }
    }
    #endif
}

/// Configuration checks shared by the filters, so every filter words its errors alike.
internal enum _FilterValidation {
    static func falsePositiveRate(_ rate: Double, strategy: String) throws(ConfigurationError) {
        // Written so that NaN fails too.
        guard rate > 0 && rate < 1 else {
            throw ConfigurationError(strategy: strategy, parameter: "falsePositiveRate", reason: "must be in (0, 1), got \(rate)")
        }
    }

    /// The most bits a filter may hold over all its arrays: 2³⁵ bits is 4 GiB, past any phone's
    /// memory, so a configuration that asks for more is refused here rather than failing to
    /// allocate; it also keeps every size computation clear of `Int` overflow.
    static let maximumBits = 1 << 35

    static func size(_ bits: Double, parameter: String, strategy: String) throws(ConfigurationError) {
        guard bits <= Double(maximumBits) else {
            throw ConfigurationError(
                strategy: strategy, parameter: parameter,
                reason: "needs \(bits) bits, more than the 2^35 (4 GiB) supported")
        }
    }
}
