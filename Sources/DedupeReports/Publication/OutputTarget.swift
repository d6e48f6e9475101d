import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the tool may write over: a path with nothing there, a regular file (replaced), or, for a
/// report directory, a directory (replaced as a whole by `DirectoryPublication`). Anything else
/// at the path — a symbolic link, a FIFO, a device, a socket — is refused and left untouched, so
/// a benchmark pointed at `/dev/full`, a link or a pipe never destroys it.
///
/// A symbolic link is refused even when it points at an acceptable target: replacing the link
/// destroys it, and writing through it writes somewhere the command line did not name. Links in
/// the parent directories are followed as usual.
package enum OutputTarget {
    /// Why a file cannot be written at `path`, or `nil` when nothing or a regular file is there.
    /// A symbolic link at the last component is not followed.
    package static func fileProblem(at path: String) -> String? {
        guard let type = entryType(at: path), type != S_IFREG else { return nil }
        return fileRefusal(type)
    }

    /// The refusal of a file write over an entry of `type`.
    static func fileRefusal(_ type: mode_t) -> String {
        "it is \(name(of: type)) (only a regular file or a new path is written)"
    }

    /// Why a report directory cannot be published at `path`, or `nil` when nothing or a
    /// directory is there.
    package static func directoryProblem(at path: String) -> String? {
        guard let type = entryType(at: path), type != S_IFDIR else { return nil }
        return "it is \(name(of: type)) (only a directory or a new path takes the reports)"
    }

    /// The file type bits (`S_IFREG`, `S_IFLNK`, …) of the entry at `path` itself, or `nil` when
    /// there is none.
    static func entryType(at path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// `a symbolic link`, `a FIFO`, …: the kind of entry, for messages.
    static func name(of type: mode_t) -> String {
        switch type {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}
