import DedupeWorkloads
import Foundation
import PushDedupe

/// Reads and writes trace files in the format of `Guides/CLI.md` (the workload issue's format).
///
/// The only place the command line touches the trace format: when the workload module's
/// `TraceReader`/`TraceWriter` land on `main`, these two functions forward to them.
enum TraceFiles {
    /// The header every trace starts with.
    static let header = "time_ms,kind,envelope,fingerprint,source,truth"

    /// Imports the trace at `path`; a malformed line fails as `file:line: reason`.
    static func read(path: String) throws(CommandLineError) -> Workload {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandLineError(.unreadableFile, "cannot read '\(path)': \(FileErrors.reason(error, path: path))")
        }
        let name = (path as NSString).lastPathComponent
        func fail(_ line: Int, _ reason: String) -> CommandLineError {
            CommandLineError(.malformedInput, "\(path):\(line): \(reason)")
        }
        var routes: [String] = []
        var routeIndex: [String: UInt32] = [:]
        var sources: [String] = []
        var sourceIndex: [String: UInt16] = [:]
        var events: [WorkloadEvent] = []
        var created: [EnvelopeID: (fingerprint: RouteFingerprint, route: UInt32)] = [:]
        var sawHeader = false
        var lastTime = -Double.infinity
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
            if line.isEmpty || line.hasPrefix("#") { continue }
            if !sawHeader {
                guard line == header else { throw fail(lineNumber, "expected the header '\(header)'") }
                sawHeader = true
                continue
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 6 else { throw fail(lineNumber, "expected 6 columns, found \(fields.count)") }
            guard let time = Double(fields[0]), time.isFinite, time >= 0 else {
                throw fail(lineNumber, "bad number '\(fields[0])' in time_ms")
            }
            guard time >= lastTime else { throw fail(lineNumber, "time_ms decreases (\(fields[0]) after \(lastTime))") }
            lastTime = time
            let kind: EventKind
            switch fields[1] {
            case "payload": kind = .payload
            case "emit": kind = .emit
            default: throw fail(lineNumber, "unknown kind '\(fields[1])' (expected payload or emit)")
            }
            let token = fields[2]
            guard (1...64).contains(token.count),
                  token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
                throw fail(lineNumber, "envelope must be 1–64 characters of [A-Za-z0-9_-]")
            }
            let fingerprintText = fields[3]
            guard fingerprintText.count <= 128 else { throw fail(lineNumber, "fingerprint longer than 128 characters") }
            guard fields[4].count <= 128 else { throw fail(lineNumber, "source longer than 128 characters") }
            let truth: Truth
            switch fields[5] {
            case "new": truth = .new
            case "dup": truth = .dup
            case "": truth = .unknown
            default: throw fail(lineNumber, "unknown truth '\(fields[5])' (expected new, dup or empty)")
            }
            let envelope = EnvelopeID(token: token)
            let fingerprint: RouteFingerprint
            let route: UInt32
            if kind == .payload {
                guard !fingerprintText.isEmpty else { throw fail(lineNumber, "a payload needs a fingerprint") }
                guard created[envelope] == nil else { throw fail(lineNumber, "duplicate payload envelope '\(token)'") }
                let routeText = String(fingerprintText)
                if let known = routeIndex[routeText] {
                    route = known
                } else {
                    route = UInt32(routes.count)
                    routes.append(routeText)
                    routeIndex[routeText] = route
                }
                fingerprint = RouteFingerprint(route: routeText)
                created[envelope] = (fingerprint, route)
            } else {
                guard let origin = created[envelope] else {
                    throw fail(lineNumber, "emit of envelope '\(token)' that no earlier payload created")
                }
                fingerprint = origin.fingerprint
                route = origin.route
            }
            let sourceText = String(fields[4])
            let source: UInt16
            if let known = sourceIndex[sourceText] {
                source = known
            } else {
                guard sources.count < Int(UInt16.max) else { throw fail(lineNumber, "too many distinct sources") }
                source = UInt16(sources.count)
                sources.append(sourceText)
                sourceIndex[sourceText] = source
            }
            events.append(WorkloadEvent(
                time: Timestamp(nanoseconds: Int64((time * 1_000_000).rounded())), kind: kind, envelope: envelope,
                fingerprint: fingerprint, route: route, source: source, truth: truth))
        }
        guard sawHeader else { throw fail(max(lineNumber, 1), "empty trace: no header") }
        return Workload(name: name, summary: "trace \(name)", routes: routes, sources: sources, events: events)
    }

    /// Exports `workload` as trace text.
    static func write(_ workload: Workload) -> String {
        var text = "# \(workload.name): \(workload.summary)\n" + header + "\n"
        for event in workload.events {
            let milliseconds = Double(event.time.nanoseconds) / 1_000_000
            let route = Int(event.route) < workload.routes.count ? workload.routes[Int(event.route)] : ""
            let source = Int(event.source) < workload.sources.count ? workload.sources[Int(event.source)] : ""
            let truth = event.truth == .new ? "new" : event.truth == .dup ? "dup" : ""
            text += "\(milliseconds),\(event.kind == .payload ? "payload" : "emit"),\(event.envelope),"
            text += "\(event.kind == .payload ? route : ""),\(source),\(truth)\n"
        }
        return text
    }
}

/// Short reasons for file errors, without Foundation's long localized sentences.
enum FileErrors {
    static func reason(_ error: any Error, path: String) -> String {
        if !FileManager.default.fileExists(atPath: path) { return "no such file" }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "is a directory"
        }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        if (error as NSError).domain == NSCocoaErrorDomain, (error as NSError).code == NSFileReadInapplicableStringEncodingError {
            return "not UTF-8 text"
        }
        return "unreadable"
    }
}
