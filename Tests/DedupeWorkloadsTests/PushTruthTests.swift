import DedupeWorkloads
import PushDedupe
import Testing

/// `replay`'s labels for a recorded trace: the first delivery of each push is new, every later
/// one a duplicate, and nothing without a push id is labelled.
@Suite struct PushTruthTests {
    static let header = "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed\n"

    static func read(_ body: String) throws -> Workload {
        try TraceReader.read(bytes: Array((header + body).utf8), fileName: "session.csv")
    }

    @Test func laterDeliveriesOfAPushAreDuplicatesAndInAppNavigationsStayUnlabelled() throws {
        var workload = try Self.read("""
            0,payload,d1,item:1,tap,,m1,
            120,payload,d2,item:1,second_token,,m1,window
            900,emit,d1,,pending_route,,,consumed-set
            1000,payload,b1,item:2,button,,,
            1100,emit,b1,,ready_callback,,,
            2000,background,,,,,,
            9000,relaunch,,,,,,
            9100,payload,d3,item:1,cold_launch,,m1,consumed-set
            9200,payload,d4,item:3,tap,,m2,

            """)
        let labelled = workload.labellingPushRedeliveries()
        let truth = try #require(labelled)
        #expect((truth.firstDeliveries, truth.redeliveries, truth.withoutPushID) == (2, 3, 2))
        #expect(workload.events.map(\.truth) == [.new, .dup, .dup, .unknown, .unknown, .unknown, .unknown, .dup, .new])
        #expect(workload.inferredTruth == truth)
    }

    @Test func aLabelledTraceOrOneWithoutPushIDsIsLeftAsItIs() throws {
        var labelled = try Self.read("0,payload,d1,item:1,tap,new,m1,\n5,payload,d2,item:1,tap,,m1,\n")
        let before = labelled.events
        let labelledResult = labelled.labellingPushRedeliveries()
        #expect(labelledResult == nil && labelled.events.elementsEqual(before) && labelled.inferredTruth == nil)
        var anonymous = try Self.read("0,payload,d1,item:1,tap,,,\n5,emit,d1,,pending_route,,,\n")
        let anonymousResult = anonymous.labellingPushRedeliveries()
        #expect(anonymousResult == nil && anonymous.events.allSatisfy { $0.truth == .unknown })
    }
}
