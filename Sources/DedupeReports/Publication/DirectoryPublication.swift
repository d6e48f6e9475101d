import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Publishes a set of files as a whole directory, so that after a kill at any point the
/// directory holds the complete previous set or the complete new one, never a mix.
///
/// The set is written into a sibling staging directory (`.NAME.dedupe-bench-PID.staging`),
/// every file and the directory are fsynced, and the staging directory is swapped with the
/// target in one atomic step: `renameat2(RENAME_EXCHANGE)` on Linux, `renamex_np(RENAME_SWAP)`
/// on Darwin. The old set, now at the staging path, is then removed, and any entry in it that
/// no report set owns (a user's file) is moved back into the new directory. A first publication
/// (no target yet) is a plain `rename(2)`. On a file system without an exchange, the target is
/// renamed aside (`.NAME.dedupe-bench-PID.previous`) and the staging renamed in: a kill between
/// the two leaves no directory, and the next start puts the previous one back.
///
/// Each set carries a manifest (`.dedupe-bench-set`, written first) naming its files, so the
/// next publication knows which entries of the old directory are reports and which are not.
/// At the start of each publication, leftovers of a killed one beside the target are cleared
/// the same way. See `Guides/Reports.md`.
package enum DirectoryPublication {
    /// The manifest's file name inside a published directory.
    package static let manifestName = ".dedupe-bench-set"

    static let manifestHeader = "dedupe-bench report set"
    static let manifestTrailer = "end"

    /// Publishes `files` as the whole content of `directory` (beside any entries that belong to
    /// no report set). `legacyNames` are the names a set published without a manifest may hold
    /// (an older version's reports), which are replaced rather than kept.
    ///
    /// - Returns: warnings about leftovers that could not be cleared (never about the new set).
    /// - Throws: `PublicationError` when the target is unusable or a step fails; the target then
    ///   still holds the previous set.
    /// - Complexity: O(files + entries of the old directory) file-system operations.
    @discardableResult
    package static func publish(
        _ files: [(name: String, data: Data)], to directory: URL, legacyNames: Set<String> = []
    ) throws(PublicationError) -> [String] {
        var steps = _FileSteps()
        return try publish(files, to: directory, legacyNames: legacyNames, steps: &steps)
    }

    static func publish(
        _ files: [(name: String, data: Data)], to directory: URL, legacyNames: Set<String>, steps: inout _FileSteps
    ) throws(PublicationError) -> [String] {
        let target = try checkedTarget(directory)
        let names = files.map(\.name)
        for name in names where name.isEmpty || name.contains("/") || name == "." || name == ".." || name == manifestName {
            throw PublicationError("invalid report file name '\(name)'")
        }
        guard Set(names).count == names.count else { throw PublicationError("duplicate report file names") }
        let parent = target.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw PublicationError("cannot create \(parent)")
        }
        let ownership = Ownership(newNames: Set(names), legacyNames: legacyNames)
        var warnings = try recoverLeftovers(beside: target, ownership: ownership, steps: &steps)

        let staging = sibling(of: target, pid: getpid(), suffix: stagingSuffix)
        try steps.makeDirectory(staging)
        try steps.writeSynced(Data(manifest(names).utf8), to: staging + "/" + manifestName)
        for file in files {
            try steps.writeSynced(file.data, to: staging + "/" + file.name)
        }
        let existing = kind(of: target.path, following: false)
        if existing == .directory {
            // The new directory keeps the old one's permissions (an owner-only report directory stays so).
            var status = stat()
            if stat(target.path, &status) == 0 { chmod(staging, status.st_mode & 0o7777) }
        }
        try steps.sync(staging)
        switch existing {
        case .missing:
            try steps.rename(staging, target.path)
            try steps.sync(parent)
        case .directory:
            let old: String
            if try steps.exchange(staging, target.path) {
                old = staging
                // What was swapped out is emptied next, so it must still be the directory that was
                // checked; anything that took its place meanwhile goes back as it was.
                if let problem = OutputTarget.directoryProblem(at: old) {
                    _ = try steps.exchange(staging, target.path)
                    throw PublicationError(problem)
                }
            } else {
                old = sibling(of: target, pid: getpid(), suffix: previousSuffix)
                if let problem = OutputTarget.directoryProblem(at: target.path) { throw PublicationError(problem) }
                try steps.rename(target.path, old)
                try steps.rename(staging, target.path)
            }
            try steps.sync(parent)
            warnings += try retire(old, into: target.path, ownership: ownership, steps: &steps)
        case .file, .other:
            throw PublicationError("\(target.path) exists and is not a directory")
        }
        return warnings
    }

    /// Why `directory` cannot be published to, checked before a long run: the root, the current
    /// directory (it would be swapped away under the shell that runs the command), or anything
    /// but a directory, a symbolic link included (``OutputTarget``). Returns the absolute target
    /// with symbolic links in its parent directories resolved.
    @discardableResult
    package static func checkedTarget(_ directory: URL) throws(PublicationError) -> URL {
        let standardized = directory.standardizedFileURL
        guard standardized.path != "/", !standardized.lastPathComponent.isEmpty else {
            throw PublicationError("cannot publish to the root directory")
        }
        let target = standardized.deletingLastPathComponent().resolvingSymlinksInPath()
            .appendingPathComponent(standardized.lastPathComponent, isDirectory: true)
        if let problem = OutputTarget.directoryProblem(at: target.path) { throw PublicationError(problem) }
        var here = stat()
        var there = stat()
        if stat(".", &here) == 0, stat(target.path, &there) == 0, here.st_dev == there.st_dev, here.st_ino == there.st_ino {
            throw PublicationError("cannot publish to the current directory (it is replaced as a whole); name another")
        }
        return target
    }

    /// Checks, before a long run, that `directory`'s parent takes the staging directory: creates
    /// the parent if needed, then makes and removes the staging directory itself (a kill in
    /// between leaves an empty leftover, which the next start clears).
    package static func probe(_ directory: URL) throws(PublicationError) {
        let target = try checkedTarget(directory)
        let parent = target.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw PublicationError("cannot create \(parent)")
        }
        let staging = sibling(of: target, pid: getpid(), suffix: stagingSuffix)
        guard mkdir(staging, 0o777) == 0 else { throw .system("cannot write in", parent, errno) }
        rmdir(staging)
    }

    // MARK: Leftovers

    static let stagingSuffix = "staging"
    static let previousSuffix = "previous"

    static func sibling(of target: URL, pid: pid_t, suffix: String) -> String {
        target.deletingLastPathComponent().path + "/" + siblingPrefix(target) + "\(pid).\(suffix)"
    }

    private static func siblingPrefix(_ target: URL) -> String {
        ".\(target.lastPathComponent).dedupe-bench-"
    }

    /// Clears what killed publications left beside `target`: a `previous` directory goes back to
    /// the target if the target is missing; every other one is retired into the target. Skips
    /// those of a process still running (a concurrent publication).
    static func recoverLeftovers(beside target: URL, ownership: Ownership, steps: inout _FileSteps) throws(PublicationError) -> [String] {
        let parent = target.deletingLastPathComponent().path
        let prefix = siblingPrefix(target)
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [])
            .filter { $0.hasPrefix(prefix) }.sorted()
        var leftovers: [(path: String, suffix: String)] = []
        for entry in entries {
            let rest = entry.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard rest.count == 2, let pid = pid_t(rest[0]), [stagingSuffix, previousSuffix].contains(String(rest[1])),
                  kind(of: parent + "/" + entry) == .directory
            else { continue }
            if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }
            leftovers.append((parent + "/" + entry, String(rest[1])))
        }
        var warnings: [String] = []
        // A `previous` first: it may be the only copy of the last complete set.
        for leftover in leftovers.sorted(by: { ($0.suffix == previousSuffix ? 0 : 1) < ($1.suffix == previousSuffix ? 0 : 1) }) {
            if leftover.suffix == previousSuffix, kind(of: target.path) == .missing {
                try steps.rename(leftover.path, target.path)
                try steps.sync(parent)
            } else {
                warnings += try retire(leftover.path, into: target.path, ownership: ownership, steps: &steps)
            }
        }
        return warnings
    }

    /// The names a publication replaces besides those an old manifest lists.
    struct Ownership {
        /// The new set's files: a file of that name in the old directory is replaced, as a
        /// plain overwrite would.
        var newNames: Set<String>
        /// What a directory without a manifest (an older version's) may hold.
        var legacyNames: Set<String>
    }

    /// Removes the set in `old` and moves every entry that belongs to no set back into `target`.
    ///
    /// Which regular files are the set's: with a complete manifest, the names it lists; with a
    /// partial one (a staging directory killed while writing it, which holds nothing else),
    /// all; with none (an older version's directory, or one that never held a set), the legacy
    /// names. The new set's names are always replaced.
    static func retire(_ old: String, into target: String, ownership: Ownership, steps: inout _FileSteps) throws(PublicationError) -> [String] {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: old)) ?? []).sorted()
        let manifest = readManifest(old + "/" + manifestName)
        var moved = false
        var warnings: [String] = []
        for entry in entries {
            let path = old + "/" + entry
            let isFile = kind(of: path, following: false) == .file
            let owned: Bool
            switch manifest {
            case .complete(let listed): owned = entry == manifestName || listed.contains(entry) || ownership.newNames.contains(entry)
            case .partial: owned = isFile
            case .absent: owned = ownership.newNames.contains(entry) || ownership.legacyNames.contains(entry)
            }
            if owned && isFile {
                try steps.removeFile(path)
            } else if !owned && kind(of: target) == .directory && kind(of: target + "/" + entry, following: false) == .missing {
                try steps.rename(path, target + "/" + entry)
                moved = true
            }
        }
        if moved { try steps.sync(target) }
        if ((try? FileManager.default.contentsOfDirectory(atPath: old)) ?? []).isEmpty {
            try steps.removeDirectory(old)
        } else {
            warnings.append("left \(old) in place: it holds entries that are not reports and could not be moved back")
        }
        return warnings
    }

    // MARK: Manifest

    enum Manifest: Equatable {
        case complete(Set<String>)
        case partial
        case absent
    }

    static func manifest(_ names: [String]) -> String {
        ([manifestHeader] + names + [manifestTrailer]).joined(separator: "\n") + "\n"
    }

    static func readManifest(_ path: String) -> Manifest {
        guard kind(of: path, following: false) == .file else { return .absent }
        guard let data = FileManager.default.contents(atPath: path) else { return .partial }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines.first == Substring(manifestHeader), lines[lines.count - 2] == Substring(manifestTrailer),
              lines.last == ""
        else { return .partial }
        return .complete(Set(lines.dropFirst().dropLast(2).map(String.init)))
    }

    // MARK: File kinds

    enum Kind: Equatable {
        case missing
        case file
        case directory
        case other
    }

    static func kind(of path: String, following: Bool = true) -> Kind {
        var status = stat()
        guard (following ? stat(path, &status) : lstat(path, &status)) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }
}
