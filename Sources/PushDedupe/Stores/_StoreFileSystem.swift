import Foundation

/// The system calls a store makes, each one a numbered ``StoreFaults`` step, each failure a
/// ``StoreError`` naming the file and the call. POSIX through Foundation, which re-exports the
/// platform's C library on Linux and on Apple platforms alike.
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

    /// Opens `path`; `nil` when `missingIsNil` and it does not exist.
    func open(_ path: String, flags: Int32, reading: Bool, missingIsNil: Bool = false) throws(StoreError) -> Int32? {
        try check(.open, path, reading: reading)
        while true {
            let fd = Foundation.open(path, flags | O_CLOEXEC, 0o600)
            if fd >= 0 { faults?.opened?(fd); return fd }
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT && missingIsNil { return nil }
            throw Self.error(.open, path, code, reading: reading)
        }
    }

    /// Every byte of the file at `path`, read under a shared lock when `locked` (a writer in
    /// another process holds the lock exclusively for its whole write); `nil` when there is no
    /// file.
    func contents(of path: String, locked: Bool) throws(StoreError) -> [UInt8]? {
        guard let fd = try open(path, flags: O_RDONLY, reading: true, missingIsNil: true) else { return nil }
        defer { close(fd) }
        if locked { try lock(fd, LOCK_SH, path, reading: true) }
        return try readAll(fd, path)
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
        let directory = (path as NSString).deletingLastPathComponent
        guard let fd = try open(directory.isEmpty ? "." : directory, flags: O_RDONLY, reading: false) else { return }
        defer { close(fd) }
        try sync(fd, directory)
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

    /// `rename(2)`: replaces `target` with `source` atomically.
    func rename(_ source: String, _ target: String) throws(StoreError) {
        try check(.rename, target)
        if Foundation.rename(source, target) != 0 { throw Self.error(.rename, target, errno, reading: false) }
    }

    /// `link(2)`: makes `target` name `source`'s file, failing with `EEXIST` when it exists, so
    /// two processes creating one store cannot both win.
    func link(_ source: String, _ target: String) throws(StoreError) -> Bool {
        try check(.rename, target)
        if Foundation.link(source, target) == 0 { return true }
        if errno == EEXIST { return false }
        throw Self.error(.rename, target, errno, reading: false)
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

    /// Writes `bytes` to a new file at `temporary`, flushed when `durability` asks, with the
    /// store's protection class, and renames it over `path`: readers see the old file or the new
    /// one, whole. A file left at `temporary` by a killed process is overwritten.
    func replace(_ path: String, with bytes: [UInt8], temporary: String, durability: StoreDurability) throws(StoreError) {
        guard let fd = try open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, reading: false) else { return }
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
        try rename(temporary, path)
        if durability == .powerLoss { try syncDirectory(of: path) }
    }

    /// Moves a file this store cannot use to `path.corrupt-N` (the first free N), never deleting
    /// it: the evidence stays for whoever debugs the phone. Returns the new path.
    func moveAside(_ path: String) throws(StoreError) -> String {
        var number = 1
        while true {
            let target = "\(path).corrupt-\(number)"
            if access(target, F_OK) != 0 {
                try rename(path, target)
                return target
            }
            number += 1
        }
    }

    /// Copies a file this store keeps using but found damaged to `path.corrupt-N`, for the record.
    func copyAside(_ path: String, bytes: [UInt8]) throws(StoreError) -> String {
        var number = 1
        while access("\(path).corrupt-\(number)", F_OK) == 0 { number += 1 }
        let target = "\(path).corrupt-\(number)"
        try replace(target, with: bytes, temporary: target + ".tmp", durability: .processKill)
        return target
    }

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
