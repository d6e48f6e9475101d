import Foundation

/// What sits at a path, read without following a symbolic link and without opening a fifo, so
/// that reading it can neither block nor change it.
enum StoreFileObject: Equatable, Sendable {
    case file([UInt8])
    /// A directory's files by name (one level: the fuzzer puts one file in it).
    case directory([String: [UInt8]])
    case symlink(target: String)
    case fifo
    case other

    /// The object at `path`, or `nil` when nothing is there.
    static func read(_ path: String) -> StoreFileObject? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return .file(bytes(path))
        case S_IFDIR:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return .directory(Dictionary(uniqueKeysWithValues: names.map { ($0, bytes(path + "/" + $0)) }))
        case S_IFLNK:
            return .symlink(target: (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "")
        case S_IFIFO:
            return .fifo
        default:
            return .other
        }
    }

    /// The bytes of the regular file at `path` (empty when it cannot be read).
    private static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map(Array.init) ?? []
    }

    /// A short name for a detail: `file of 120 B`, `fifo`.
    var summary: String {
        switch self {
        case .file(let bytes): "file of \(bytes.count) B"
        case .directory(let entries): "directory of \(entries.count) file(s)"
        case .symlink: "symlink"
        case .fifo: "fifo"
        case .other: "other"
        }
    }
}
