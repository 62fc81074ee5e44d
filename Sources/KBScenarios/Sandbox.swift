import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a sandboxed command did.
public struct SandboxResult: Sendable {
    /// The exit status, or 128 + the signal number when a signal ended it.
    public var exitStatus: Int32
    /// The signal that ended the command, if one did.
    public var signal: Int32?
    public var stdout: String
    public var stderr: String
    /// Bytes of each stream beyond the limit, read and thrown away.
    public var stdoutDiscarded: Int
    public var stderrDiscarded: Int
    /// Whether the command ran past its timeout and its process group was killed.
    public var timedOut: Bool
    public var duration: TimeInterval
}

/// Runs commands the way check scenarios may: no shell, an argv given explicitly, a scrubbed
/// environment, its own process group killed as a whole at the timeout (and after the command
/// ends, so no background child survives it), and a cap on each output stream.
public enum Sandbox {
    /// The only folders PATH is built from (plus the Swift toolchain's, see `path(host:)`).
    public static let safePathDirectories = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
    /// Programs whose folder on the host PATH is added to the sandbox PATH (toolchains installed
    /// outside the system folders, such as `/opt/swift/usr/bin`).
    public static let toolchainPrograms = ["swiftc"]

    /// The sandbox PATH: the safe folders, then the folder holding `swiftc` on the host PATH when
    /// that folder is an absolute path outside temporary folders and the home folder.
    public static func path(host: [String: String]) -> String {
        var folders = safePathDirectories
        let home = host["HOME"]
        for folder in (host["PATH"] ?? "").split(separator: ":").map(String.init) where folder.hasPrefix("/") {
            let standard = (folder as NSString).standardizingPath
            if folders.contains(standard) { continue }
            if standard.hasPrefix("/tmp") || standard.hasPrefix("/var/tmp") || standard.hasPrefix("/dev/shm") { continue }
            if let home, !home.isEmpty, standard == home || standard.hasPrefix(home + "/") { continue }
            if toolchainPrograms.contains(where: { FileManager.default.isExecutableFile(atPath: standard + "/" + $0) }) {
                folders.append(standard)
            }
        }
        return folders.joined(separator: ":")
    }

    /// The whole environment of a sandboxed command: nothing is inherited.
    public static func environment(path: String, home: String, temporary: String) -> [String: String] {
        ["PATH": path, "HOME": home, "TMPDIR": temporary, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1",
         "TZ": "UTC"]
    }

    /// The executable for `program`: a path with a `/` is taken relative to `directory`; a bare
    /// name is looked up in `path`.
    public static func resolve(_ program: String, path: String, directory: String) -> String? {
        let fm = FileManager.default
        if program.contains("/") {
            let full = program.hasPrefix("/") ? program : (directory as NSString).appendingPathComponent(program)
            return fm.isExecutableFile(atPath: full) ? full : nil
        }
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/" + program
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue, fm.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    public struct LaunchError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// Runs `executable` with `arguments` (argv, `arguments[0]` included) in `directory`.
    public static func run(executable: String, arguments: [String], directory: String, environment: [String: String],
                           stdin: String? = nil, timeout: TimeInterval, outputLimit: Int) throws -> SandboxResult {
        let start = Date()
        // Standard input: a file in the scratch folder, or /dev/null.
        var inputPath = "/dev/null"
        if let stdin {
            inputPath = NSTemporaryDirectory() + "kb-stdin-" + UUID().uuidString
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: inputPath))
        }
        defer { if stdin != nil { unlink(inputPath) } }
        let inputFD = open(inputPath, O_RDONLY | O_CLOEXEC)
        guard inputFD >= 0 else { throw LaunchError(message: "cannot open standard input: \(String(cString: strerror(errno)))") }
        defer { close(inputFD) }

        // Pipes are made close-on-exec and spawned under one lock, so a command started by another
        // thread of this process never inherits this command's pipe ends.
        spawnLock.lock()
        var locked = true
        defer { if locked { spawnLock.unlock() } }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw LaunchError(message: "cannot create pipes: \(String(cString: strerror(errno)))") }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw LaunchError(message: "cannot create pipes: \(String(cString: strerror(errno)))")
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputFD, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var argv = arguments
        var program = executable
        if let addChdir = Self.addChdir {
            let status = directory.withCString { addChdir(&actions, $0) }
            guard status == 0 else { throw LaunchError(message: "cannot change to \(directory)") }
        } else if let env = resolve("env", path: safePathDirectories.joined(separator: ":"), directory: "/") {
            // Older C libraries: let coreutils `env --chdir` change the folder, then exec.
            argv = ["env", "--chdir=" + directory, executable] + arguments.dropFirst()
            program = env
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, cArguments, cEnvironment)
        close(outPipe[1])
        close(errPipe[1])
        spawnLock.unlock()
        locked = false
        guard spawned == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw LaunchError(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }

        var buffers: [[UInt8]] = [[], []]
        var discarded = [0, 0]
        var open = [outPipe[0], errPipe[0]]
        for fd in open { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        func drain(_ index: Int) {
            let fd = open[index]
            guard fd >= 0 else { return }
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let room = max(0, outputLimit - buffers[index].count)
                    if room > 0 { buffers[index].append(contentsOf: chunk[0..<min(room, count)]) }
                    discarded[index] += max(0, count - room)
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(fd)
                    open[index] = -1
                    return
                } else {
                    return
                }
            }
        }

        let deadline = start.addingTimeInterval(timeout)
        var status: Int32 = 0
        var exited = false
        var exitedAt: Date? = nil
        var timedOut = false
        while true {
            var fds = open.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if !fds.isEmpty { _ = poll(&fds, nfds_t(fds.count), 50) } else { usleep(20_000) }
            drain(0)
            drain(1)
            if !exited {
                let waited = waitpid(pid, &status, WNOHANG)
                if waited == pid { exited = true; exitedAt = Date() }
            }
            if exited && open.allSatisfy({ $0 < 0 }) { break }
            // The command is done but a background child still holds the output open: give it
            // a moment, then end the group.
            if exited, let exitedAt, Date().timeIntervalSince(exitedAt) > 0.5 { break }
            if Date() >= deadline {
                timedOut = !exited
                break
            }
        }
        // Kill whatever is left of the process group (everything, on a timeout).
        kill(-pid, SIGKILL)
        if !exited {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        drain(0)
        drain(1)
        for fd in open where fd >= 0 { close(fd) }

        let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        let signal: Int32? = signalled ? status & 0x7f : nil
        let exitStatus: Int32 = signalled ? 128 + (status & 0x7f) : (status >> 8) & 0xff
        return SandboxResult(exitStatus: exitStatus, signal: signal,
                             stdout: String(decoding: buffers[0], as: UTF8.self), stderr: String(decoding: buffers[1], as: UTF8.self),
                             stdoutDiscarded: discarded[0], stderrDiscarded: discarded[1], timedOut: timedOut,
                             duration: Date().timeIntervalSince(start))
    }

    static let spawnLock = NSLock()

    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), looked up at run time because the
    /// Swift Glibc module does not export it.
    static let addChdir: AddChdir? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()
}

/// Splits a command line into words the way a POSIX shell does for quoting, without running a
/// shell: `'…'` is literal, `"…"` allows `\"`, `\\`, `\$` and `` \` `` escapes, a backslash
/// outside quotes escapes the next character. Nothing is expanded.
public enum ShellWords {
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    public static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(line)
        var i = 0
        defer { iterator.removeAll() }
        while i < iterator.count {
            let c = iterator[i]
            switch c {
            case "'":
                inWord = true
                guard let end = iterator[(i + 1)...].firstIndex(of: "'") else { throw Error(message: "unterminated ' quote in: \(line)") }
                current += String(iterator[(i + 1)..<end])
                i = end + 1
                continue
            case "\"":
                inWord = true
                var j = i + 1
                var closed = false
                while j < iterator.count {
                    let d = iterator[j]
                    if d == "\"" { closed = true; break }
                    if d == "\\", j + 1 < iterator.count, "\"\\$`".contains(iterator[j + 1]) {
                        current.append(iterator[j + 1]); j += 2; continue
                    }
                    current.append(d); j += 1
                }
                guard closed else { throw Error(message: "unterminated \" quote in: \(line)") }
                i = j + 1
                continue
            case "\\":
                guard i + 1 < iterator.count else { throw Error(message: "the command ends with a backslash: \(line)") }
                inWord = true
                current.append(iterator[i + 1])
                i += 2
                continue
            case _ where c == " " || c == "\t" || c == "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            default:
                inWord = true
                current.append(c)
            }
            i += 1
        }
        if inWord { words.append(current) }
        return words
    }
}
