import Foundation

/// The system calls a store makes, each one a numbered ``StoreFaults`` step, each failure a
/// ``StoreError`` naming the file and the call. POSIX through Foundation, which re-exports the
/// platform's C library on Linux and on Apple platforms alike.
///
/// Every change to which file the store's path names is a compare-and-swap, so that two
/// processes (or two stores in one process) cannot undo each other's acknowledged writes:
/// - a new file is linked to the path only while nothing is there (`link(2)` fails with
///   `EEXIST`);
/// - a file is renamed over the path, or moved away from it, only by a store that holds the
///   lock of the file the path names and has checked that it is still the one it read
///   (``withBinding(_:expecting:_:)``).
/// Temporary files get names of their own (`mkstemp`), never one per process.
struct _StoreFileSystem: Sendable {
    let faults: StoreFaults?
    let protection: StoreFileProtection

    /// Runs the fault injector before `step`: kills the process, or throws the injected errno as
    /// `kind` would carry it.
    func check(_ step: StoreFaults.Step, _ path: String, reading: Bool = false) throws(StoreError) {
        guard let fault = faults?.fault(before: step) else { return }
        switch fault {
        case .kill:
            _ = kill(getpid(), SIGKILL)
            // SIGKILL cannot be caught; the process never gets past the call above.
            fatalError("SIGKILL did not end the process")
        case .fail(let code):
            throw Self.error(step, path, code, reading: reading, injected: true)
        }
    }

    static func error(_ step: StoreFaults.Step, _ path: String, _ code: Int32, reading: Bool, injected: Bool = false) -> StoreError {
        let message = String(cString: strerror(code))
        return StoreError(
            path: path, kind: reading ? .unreadable(errno: code) : .unwritable(errno: code),
            reason: "\(step) failed: \(message) (errno \(code)\(injected ? ", injected" : ""))")
    }

    static func notARegularFile(_ path: String, _ what: String) -> StoreError {
        StoreError(
            path: path, kind: .notARegularFile,
            reason: "\(what) is at the store's path, not a regular file; it is left untouched and not written")
    }

    /// Opens the regular file at `path`; `nil` when `missingIsNil` and nothing is there.
    ///
    /// `O_NOFOLLOW` and `O_NONBLOCK`, then a file-type check: a symbolic link, a directory, a
    /// fifo or a device at the path is refused with ``StoreError/Kind/notARegularFile``, never
    /// followed, waited on (opening a fifo blocks until a writer comes) or written.
    func open(_ path: String, flags: Int32, reading: Bool, missingIsNil: Bool = false) throws(StoreError) -> Int32? {
        try check(.open, path, reading: reading)
        while true {
            let fd = Foundation.open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
            if fd >= 0 {
                var info = stat()
                if fstat(fd, &info) != 0 {
                    let code = errno
                    close(fd)
                    throw Self.error(.open, path, code, reading: reading)
                }
                guard info.st_mode & S_IFMT == S_IFREG else {
                    close(fd)
                    throw Self.notARegularFile(path, Self.fileType(info.st_mode))
                }
                faults?.opened?(fd)
                return fd
            }
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT && missingIsNil { return nil }
            if code == ELOOP { throw Self.notARegularFile(path, "a symbolic link") }
            if code == EISDIR { throw Self.notARegularFile(path, "a directory") }
            if code == ENXIO { throw Self.notARegularFile(path, "a fifo, socket or device") }
            throw Self.error(.open, path, code, reading: reading)
        }
    }

    private static func fileType(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a fifo"
        case S_IFLNK: "a symbolic link"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a special file"
        }
    }

    /// Every byte of the file at `path` and which file it was, read under a shared lock when
    /// `locked` (a writer in another process holds the lock exclusively for its whole write);
    /// `nil` when there is no file.
    func contents(of path: String, locked: Bool) throws(StoreError) -> (bytes: [UInt8], version: _FileVersion)? {
        guard let fd = try open(path, flags: O_RDONLY, reading: true, missingIsNil: true) else { return nil }
        defer { close(fd) }
        if locked { try lock(fd, LOCK_SH, path, reading: true) }
        let bytes = try readAll(fd, path)
        return (bytes, try version(fd, path, bytes: bytes, reading: true))
    }

    /// A store's load: reads the file at `path` (`nil` when there is none) and hands it to
    /// `recover`, again while `recover` finds that another store changed it meanwhile
    /// (``StoreError/Kind/changedSinceRead``), at most ``_StoreRead/attempts`` times. First
    /// removes temporaries a killed process left.
    func load(
        _ path: String, locked: Bool, _ recover: (_ contents: (bytes: [UInt8], version: _FileVersion)?) throws(StoreError) -> StoreLoad
    ) throws(StoreError) -> StoreLoad {
        removeStaleTemporaries(of: path)
        for _ in 0..<_StoreRead.attempts {
            do throws(StoreError) {
                return try recover(try contents(of: path, locked: locked))
            } catch where error.kind == .changedSinceRead {
                continue
            }
        }
        throw _StoreRead.keptChanging(path)
    }

    /// The identity of the open file whose contents are `bytes`.
    func version(_ fd: Int32, _ path: String, bytes: [UInt8], reading: Bool = false) throws(StoreError) -> _FileVersion {
        var info = stat()
        if fstat(fd, &info) != 0 { throw Self.error(.open, path, errno, reading: reading) }
        return _FileVersion(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), bytes: bytes)
    }

    /// Every byte of the open file, from offset 0.
    func readAll(_ fd: Int32, _ path: String) throws(StoreError) -> [UInt8] {
        try check(.read, path, reading: true)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error(.read, path, errno, reading: true)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            offset += off_t(count)
        }
    }

    /// Up to `count` bytes from offset 0: fewer only when the file is shorter.
    func readPrefix(_ fd: Int32, count: Int, _ path: String) throws(StoreError) -> [UInt8] {
        try check(.read, path, reading: true)
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
            if read >= 0 { return Array(bytes[0..<read]) }
            if errno != EINTR { throw Self.error(.read, path, errno, reading: true) }
        }
    }

    /// Writes all of `bytes` at the file's offset (the end, for a file opened with `O_APPEND`),
    /// in one `write(2)` unless the kernel takes fewer bytes.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String) throws(StoreError) {
        try check(.write, path)
        var done = 0
        while done < bytes.count {
            let count = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error(.write, path, errno, reading: false)
            }
            done += count
        }
    }

    func write(_ fd: Int32, _ bytes: [UInt8], _ path: String) throws(StoreError) {
        // `withUnsafeBytes` rethrows untyped errors: the typed one is carried out by hand.
        var failure: StoreError?
        bytes.withUnsafeBytes { buffer in
            do throws(StoreError) { try write(fd, buffer, path) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes `bytes` at `offset` with `pwrite(2)`, on a descriptor opened without `O_APPEND`
    /// (Linux appends a `pwrite` to an `O_APPEND` descriptor whatever the offset).
    func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int, _ path: String) throws(StoreError) {
        try check(.write, path)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error(.write, path, errno, reading: false)
            }
            done += count
        }
    }

    /// Flushes the file's data to the disk: `F_FULLFSYNC` on Apple platforms, whose `fsync` only
    /// reaches the drive's cache (`fsync(2)` man page, macOS), and `fdatasync` elsewhere.
    func sync(_ fd: Int32, _ path: String) throws(StoreError) {
        try check(.sync, path)
        #if canImport(Darwin)
        let result = fcntl(fd, F_FULLFSYNC)
        #else
        let result = fdatasync(fd)
        #endif
        if result != 0 { throw Self.error(.sync, path, errno, reading: false) }
    }

    /// Flushes the directory holding `path`, so that a rename in it survives a power cut.
    func syncDirectory(of path: String) throws(StoreError) {
        let directory = Self.directory(of: path)
        try check(.open, directory)
        let fd = Foundation.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error(.open, directory, errno, reading: false) }
        defer { close(fd) }
        try sync(fd, directory)
    }

    static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// `flock(2)`: shared, exclusive or unlock. Held only around one operation, never while the
    /// app can be suspended (a lock held then ends the app with 0xdead10cc).
    func lock(_ fd: Int32, _ operation: Int32, _ path: String, reading: Bool = false) throws(StoreError) {
        try check(.lock, path, reading: reading)
        // An explorer's scheduler cannot see a thread blocked inside the kernel: it asks for a
        // try-lock, and parks the thread itself while the lock is held elsewhere.
        let contended = faults?.lockContended
        while flock(fd, contended == nil ? operation : operation | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK, let contended, contended() { continue }
            throw Self.error(.lock, path, code, reading: reading)
        }
    }

    /// `rename(2)`: makes `target` name `source`'s file, atomically. The caller holds the lock of
    /// the file `target` names and has checked it (or `target` is no store's path).
    func rename(_ source: String, _ target: String) throws(StoreError) {
        try check(.rename, target)
        if Foundation.rename(source, target) != 0 { throw Self.error(.rename, target, errno, reading: false) }
    }

    /// `link(2)`: makes `target` name `source`'s file only if nothing is at `target` (`false`
    /// when something is), so two stores creating one file cannot both win.
    func link(_ source: String, _ target: String) throws(StoreError) -> Bool {
        try check(.rename, target)
        if Foundation.link(source, target) == 0 { return true }
        if errno == EEXIST { return false }
        throw Self.error(.rename, target, errno, reading: false)
    }

    /// `unlink(2)` of a name whose file is kept under another name, or of a temporary.
    func unlinkName(_ path: String) throws(StoreError) {
        try check(.rename, path)
        if Foundation.unlink(path) != 0 && errno != ENOENT { throw Self.error(.rename, path, errno, reading: false) }
    }

    func truncate(_ fd: Int32, to size: Int, _ path: String) throws(StoreError) {
        try check(.truncate, path)
        while ftruncate(fd, off_t(size)) != 0 {
            if errno == EINTR { continue }
            throw Self.error(.truncate, path, errno, reading: false)
        }
    }

    /// The file's size and whether it is still linked (a file renamed over has no link left).
    func status(_ fd: Int32, _ path: String, reading: Bool = false) throws(StoreError) -> (size: Int, linked: Bool) {
        var info = stat()
        if fstat(fd, &info) != 0 { throw Self.error(.open, path, errno, reading: reading) }
        return (Int(info.st_size), info.st_nlink > 0)
    }

    /// Whether `path` still names the open file: not renamed over, nor moved away.
    func isBound(_ fd: Int32, _ path: String) throws(StoreError) -> Bool {
        var open = stat()
        var named = stat()
        if fstat(fd, &open) != 0 { throw Self.error(.open, path, errno, reading: false) }
        if lstat(path, &named) != 0 {
            if errno == ENOENT { return false }
            throw Self.error(.open, path, errno, reading: false)
        }
        return open.st_nlink > 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    static func changedSinceRead(_ path: String) -> StoreError {
        StoreError(
            path: path, kind: .changedSinceRead,
            reason: "another store changed the file since it was read; it is read again, never overwritten")
    }

    /// Runs `body` with the exclusive lock of the file at `path`, once it has checked that the
    /// path still names the file `expected` describes, with the same contents: the compare of a
    /// compare-and-swap. `body` gets the locked descriptor and the bytes it holds.
    ///
    /// - Throws: ``StoreError/Kind/changedSinceRead`` when the path names another file or the
    ///   file changed; nothing was written.
    func withBinding<Result>(
        _ path: String, expecting expected: _FileVersion, _ body: (Int32, [UInt8]) throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        guard let fd = try open(path, flags: O_RDONLY, reading: false, missingIsNil: true) else { throw Self.changedSinceRead(path) }
        defer { close(fd) }
        try lock(fd, LOCK_EX, path)
        guard try isBound(fd, path) else { throw Self.changedSinceRead(path) }
        let bytes = try readAll(fd, path)
        guard try version(fd, path, bytes: bytes) == expected else { throw Self.changedSinceRead(path) }
        return try body(fd, bytes)
    }

    /// Writes `bytes` to a new file of its own beside `path` (`NAME.purpose-XXXXXX`, made by
    /// `mkstemp`, so no two writers share one), with the store's protection class, flushed when
    /// `durability` asks. Returns its name; the caller renames or links it, then unlinks it.
    func writeTemporary(beside path: String, _ purpose: String, _ bytes: [UInt8], durability: StoreDurability) throws(StoreError) -> String {
        try check(.open, path)
        var template = Array("\(path).\(purpose)-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Self.error(.open, path, errno, reading: false) }
        faults?.opened?(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(StoreError) {
            try applyProtection(temporary)
            try write(fd, bytes, temporary)
            if durability == .powerLoss { try sync(fd, temporary) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        return temporary
    }

    /// Makes `path` name a new file holding `bytes`, whole: renamed over the file `expected`
    /// describes (``withBinding(_:expecting:_:)``), or linked to the path when `expected` is
    /// `nil` and nothing is there. Readers see the old file or the new one.
    ///
    /// - Throws: ``StoreError/Kind/changedSinceRead`` when the path no longer names what was read.
    func replace(_ path: String, with bytes: [UInt8], expecting expected: _FileVersion?, durability: StoreDurability) throws(StoreError) {
        let temporary = try writeTemporary(beside: path, "replacing", bytes, durability: durability)
        defer { unlink(temporary) }
        if let expected {
            try withBinding(path, expecting: expected) { _, _ throws(StoreError) in try rename(temporary, path) }
        } else if !(try link(temporary, path)) {
            throw Self.changedSinceRead(path)
        }
        if durability == .powerLoss { try syncDirectory(of: path) }
    }

    /// Makes `path` name a new file holding `bytes`, whole, whatever it named: the snapshot
    /// design's save, whose whole-state writes are last-writer-wins by design.
    func overwrite(_ path: String, with bytes: [UInt8], durability: StoreDurability) throws(StoreError) {
        let temporary = try writeTemporary(beside: path, "replacing", bytes, durability: durability)
        defer { unlink(temporary) }
        try publish(temporary, over: path, durability: durability)
    }

    /// A salvage of the damaged file a store read (`damaged`, `expected`): under its lock, if
    /// the path still names it unchanged, it is copied aside (once per distinct content), and
    /// `salvaged` is renamed over it. The path is never empty, so a racing store reads again.
    /// Returns the copy.
    func salvage(_ path: String, damaged: [UInt8], expecting expected: _FileVersion, with salvaged: [UInt8], durability: StoreDurability)
        throws(StoreError) -> String
    {
        try withBinding(path, expecting: expected) { _, _ throws(StoreError) in
            let copy = try copyAside(path, bytes: damaged)
            let temporary = try writeTemporary(beside: path, "replacing", salvaged, durability: durability)
            defer { unlink(temporary) }
            try publish(temporary, over: path, durability: durability)
            return copy
        }
    }

    /// Renames `temporary` over `path`; the caller holds the lock of the file `path` names and
    /// has checked it is the one it read.
    func publish(_ temporary: String, over path: String, durability: StoreDurability) throws(StoreError) {
        try rename(temporary, path)
        if durability == .powerLoss { try syncDirectory(of: path) }
    }

    /// Moves the file this store read and cannot use (`expected`) away from `path` to
    /// `path.corrupt-N`, never deleting it: linked to the first free N, then unlinked from the
    /// path, under its lock. A copy with the same bytes already there (a move a kill cut short)
    /// is the one kept. Returns the copy's path.
    func moveAside(_ path: String, expecting expected: _FileVersion) throws(StoreError) -> String {
        try withBinding(path, expecting: expected) { _, bytes throws(StoreError) in
            if let existing = try existingCopy(of: path, bytes: bytes) {
                try unlinkName(path)
                return existing
            }
            let target = try linkAside(path, path)
            try unlinkName(path)
            return target
        }
    }

    /// Keeps a copy of the damaged `bytes` read from `path` at `path.corrupt-N`, once: a copy
    /// with the same bytes already there is the one returned.
    func copyAside(_ path: String, bytes: [UInt8]) throws(StoreError) -> String {
        if let existing = try existingCopy(of: path, bytes: bytes) { return existing }
        let temporary = try writeTemporary(beside: path, "copying", bytes, durability: .processKill)
        defer { unlink(temporary) }
        return try linkAside(temporary, path)
    }

    /// Links `source` to `path.corrupt-N` for the first N free, so two stores never share one.
    private func linkAside(_ source: String, _ path: String) throws(StoreError) -> String {
        var number = 1
        while true {
            let target = "\(path).corrupt-\(number)"
            if try link(source, target) { return target }
            number += 1
        }
    }

    /// The `path.corrupt-N` copy that holds exactly `bytes`, if there is one.
    func existingCopy(of path: String, bytes: [UInt8]) throws(StoreError) -> String? {
        let name = (path as NSString).lastPathComponent + ".corrupt-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.directory(of: path))) ?? []
        let numbers = names.compactMap { $0.hasPrefix(name) ? Int($0.dropFirst(name.count)) : nil }.sorted()
        for number in numbers {
            let copy = "\(path).corrupt-\(number)"
            guard let fd = try? open(copy, flags: O_RDONLY, reading: true, missingIsNil: true) else { continue }
            defer { close(fd) }
            if (try? status(fd, copy).size) == bytes.count, try readAll(fd, copy) == bytes { return copy }
        }
        return nil
    }

    /// Removes temporaries beside `path` (`NAME.purpose-XXXXXX`) older than `age` seconds: a
    /// store's temporary lives for one write, so an old one is what a killed process left.
    /// Removing one still in use only makes that store's rename fail, which it reports; nothing
    /// acknowledged is ever in a temporary.
    func removeStaleTemporaries(of path: String, olderThan age: Double = 600) {
        let prefix = (path as NSString).lastPathComponent + "."
        let directory = Self.directory(of: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let now = Date().timeIntervalSince1970
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.lastIndex(of: "-"), rest.distance(from: dash, to: rest.endIndex) == 7,
                  Self.temporaryPurposes.contains(String(rest[..<dash])) else { continue }
            var info = stat()
            let candidate = "\(directory)/\(name)"
            guard lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            #if canImport(Darwin)
            let modified = Double(info.st_mtimespec.tv_sec)
            #else
            let modified = Double(info.st_mtim.tv_sec)
            #endif
            if now - modified > age {
                unlink(candidate)
            }
        }
    }

    static let temporaryPurposes: Set<String> = ["creating", "replacing", "compacting", "copying", "migrating"]

    /// Sets the Data Protection class on Apple platforms; nothing elsewhere.
    func applyProtection(_ path: String) throws(StoreError) {
        #if canImport(Darwin)
        let type: FileProtectionType
        switch protection {
        case .completeUntilFirstUserAuthentication: type = .completeUntilFirstUserAuthentication
        case .complete: type = .complete
        case .completeUnlessOpen: type = .completeUnlessOpen
        case .none: type = .none
        }
        do {
            try FileManager.default.setAttributes([.protectionKey: type], ofItemAtPath: path)
        } catch {
            throw StoreError(path: path, kind: .unwritable(errno: EPERM), reason: "cannot set protection \(protection): \(error)")
        }
        #endif
    }
}

/// Which file a store read, and what it held: the file's identity and its contents' digest.
/// Two versions are equal only for the same file with the same bytes, which is what a
/// compare-and-swap of the store's path checks.
struct _FileVersion: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var digest: UInt64

    init(device: UInt64, inode: UInt64, bytes: [UInt8]) {
        self.device = device
        self.inode = inode
        size = bytes.count
        digest = _SnapshotFormat.checksum(bytes[...])
    }
}
