import DedupeWorkloads
import PushDedupe
import Testing
@testable import DedupeHarness

/// The compact layout: one flags byte and a dense slot per event, one envelope per slot, and the
/// `push-id` columns sharing every array with the `minted` ones but the slots and the table.
@Suite struct EventColumnsLayoutTests {
    /// Each event's fields read back from the columns, and its envelope from its slot: slots are
    /// numbered in order of first appearance, like a dictionary model assigns them.
    @Test(arguments: [EnvelopeIdentity.minted, .pushID], [UInt64(1), 2, 3])
    func columnsReadBackEveryEventAndNumberSlotsByFirstAppearance(identity: EnvelopeIdentity, seed: UInt64) {
        let workload = randomWorkload(seed: seed, events: 3_000, orphanEmits: seed == 3)
        let columns = EventColumns(workload.events, pushes: workload.pushes, identity: identity)
        var model: [EnvelopeID: Int32] = [:]
        #expect(columns.count == workload.events.count)
        for (i, event) in workload.events.enumerated() {
            #expect(columns.kind(i) == event.kind && columns.times[i] == event.time && columns.truths[i] == event.truth)
            #expect(columns.routes[i] == event.route && columns.sources[i] == event.source && columns.fingerprints[i] == event.fingerprint)
            guard !event.kind.isLifecycle else {
                #expect(columns.envelopeSlot[i] == 0 && columns.hasCreator(i))
                continue
            }
            let envelope = identity == .pushID && Int(event.push) < workload.pushes.count ? workload.pushes[Int(event.push)] : event.envelope
            let slot = model[envelope] ?? Int32(model.count)
            model[envelope] = slot
            #expect(columns.envelopeSlot[i] == slot && columns.envelope(i) == envelope, "event \(i)")
        }
        #expect(columns.envelopeCount == model.count)
        #expect(columns.relaunches == workload.events.indices.filter { workload.events[$0].kind == .relaunch })
        #expect(columns.lifecycle == workload.events.indices.filter { workload.events[$0].kind.isLifecycle })
    }

    /// The creator flag: an emit's envelope (under the identity) was created by an earlier payload.
    @Test(arguments: [EnvelopeIdentity.minted, .pushID])
    func creatorFlagsFollowTheIdentity(identity: EnvelopeIdentity) {
        let workload = randomWorkload(seed: 11, events: 3_000, orphanEmits: true)
        let columns = EventColumns(workload.events, pushes: workload.pushes, identity: identity)
        var created = Set<EnvelopeID>()
        for (i, event) in workload.events.enumerated() where !event.kind.isLifecycle {
            if event.kind == .payload { created.insert(columns.envelope(i)) }
            #expect(columns.hasCreator(i) == created.contains(columns.envelope(i)), "event \(i)")
        }
    }

    /// `reidentified` equals the columns built under `push-id` directly, and shares every buffer
    /// but the slots and the table; the flags too unless a creator differs (a hand-built orphan
    /// emit), which the generated workloads never have.
    @Test(arguments: [false, true])
    func thePushIDColumnsShareEveryArrayButTheSlots(orphans: Bool) {
        let workload = randomWorkload(seed: 5, events: 2_000, orphanEmits: orphans)
        let minted = EventColumns(workload.events, pushes: workload.pushes)
        let pushID = minted.reidentified(byPush: workload.events.pushes, ids: workload.pushes)
        #expect(pushID == EventColumns(workload.events, pushes: workload.pushes, identity: .pushID))
        func address<T>(_ array: [T]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        #expect(address(pushID.times) == address(minted.times))
        #expect(address(pushID.fingerprints) == address(minted.fingerprints))
        #expect(address(pushID.routes) == address(minted.routes))
        #expect(address(pushID.sources) == address(minted.sources))
        #expect(address(pushID.truths) == address(minted.truths))
        #expect((address(pushID.flags) == address(minted.flags)) == (pushID.flags == minted.flags))
        #expect(orphans || pushID.flags == minted.flags)
        #expect(address(pushID.envelopeSlot) != address(minted.envelopeSlot))
        #expect(pushID.envelopeCount < minted.envelopeCount)
    }

    /// Under `push-id`, an event without a push whose envelope id is some push's id is that
    /// push's envelope, as for a dictionary on ids, whichever of the two appears first.
    @Test func anEnvelopeWhoseIDIsAPushIDIsThatPushUnderPushID() {
        let p = EnvelopeID(high: 3, low: 3), a = EnvelopeID(high: 1, low: 1), b = EnvelopeID(high: 2, low: 2)
        func event(_ milliseconds: Double, _ kind: EventKind, _ envelope: EnvelopeID, push: UInt32 = WorkloadEvent.noPush) -> WorkloadEvent {
            WorkloadEvent(time: .milliseconds(milliseconds), kind: kind, envelope: envelope, fingerprint: RouteFingerprint(route: "item:1"),
                          route: 0, source: 0, truth: .new, push: push)
        }
        let events = [event(0, .payload, p), event(1, .payload, a, push: 0), event(2, .payload, b), event(3, .emit, p), event(4, .emit, a, push: 0)]
        let columns = EventColumns(events, pushes: [p], identity: .pushID)
        #expect(columns.envelopeSlot == [0, 0, 1, 0, 0] && columns.envelopeTable == [p, b])
        #expect(events.indices.allSatisfy { columns.hasCreator($0) })
        let later = EventColumns([event(0, .payload, a, push: 0), event(1, .payload, p)], pushes: [p], identity: .pushID)
        #expect(later.envelopeSlot == [0, 0] && later.envelopeTable == [p])
    }

    /// A generated workload's `push-id` columns keep its flags: only the slots are new.
    @Test func aGeneratedWorkloadsPushIDColumnsKeepItsFlags() throws {
        let generated = ScenarioCatalogue.all.lazy.map { $0.workload(seed: 3, scale: 0.05) }.first { $0.hasPushIDs }
        let workload = try #require(generated)
        var loaded = LoadedWorkload(id: "w", category: nil, tag: nil, workload: workload, spec: nil)
        loaded.prepare(keepEvents: true)
        let pushID = try #require(loaded.pushIDColumns)
        #expect(pushID.flags.withUnsafeBufferPointer { $0.baseAddress } == loaded.columns.flags.withUnsafeBufferPointer { $0.baseAddress })
    }

    /// The slot index against a dictionary on ids that repeat, across several growths.
    @Test func theSlotIndexAgreesWithADictionary() {
        var random = SplitMix64(seed: 9)
        var index = _EnvelopeSlotIndex()
        var table: [EnvelopeID] = []
        var model: [EnvelopeID: Int32] = [:]
        var seen: [EnvelopeID] = []
        for _ in 0..<20_000 {
            let id = random.next() % 3 == 0 && !seen.isEmpty
                ? seen[Int(random.next() % UInt64(seen.count))] : EnvelopeID(high: random.next() % 7, low: random.next())
            if model[id] == nil { model[id] = Int32(model.count); seen.append(id) }
            #expect(index.slot(of: id, in: &table) == model[id]!)
        }
        #expect(table == seen)
    }

    /// Releasing the events once the columns exist keeps what the run reads after: names,
    /// routes, sources, pushes, and the workload's figures.
    @Test func aPreparedWorkloadCanDropItsEvents() {
        let workload = randomWorkload(seed: 4, events: 1_000)
        var kept = LoadedWorkload(id: "w", category: nil, tag: nil, workload: workload, spec: nil)
        var dropped = kept
        kept.prepare(keepEvents: true)
        dropped.prepare(keepEvents: false)
        #expect(dropped.workload.events.isEmpty && kept.workload.events.count == 1_000)
        #expect(dropped.workload.pushes == workload.pushes && dropped.workload.routes == workload.routes)
        #expect(dropped.columns == kept.columns && dropped.pushIDColumns == kept.pushIDColumns)
        // The figures read from the columns, against the events read through a dictionary.
        var created: [EnvelopeID: Int64] = [:]
        var replays = 0, within = 0
        for event in workload.events {
            if event.kind == .payload, created[event.envelope] == nil { created[event.envelope] = event.time.nanoseconds }
            if event.kind == .emit, let creation = created[event.envelope] {
                replays += 1
                if Double(event.time.nanoseconds - creation) / 1e6 <= 500 { within += 1 }
            }
        }
        let info = dropped.info(windowMilliseconds: 500)
        #expect(info.events == 1_000 && info.envelopes == kept.columns.envelopeCount)
        #expect(info.replays == replays && info.replaysWithinWindow == within)
    }
}
