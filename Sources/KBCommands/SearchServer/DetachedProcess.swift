import Foundation
import KBCore
#if canImport(Glibc)
import Glibc
#endif

/// Starts a process that outlives its caller: in a session of its own (no controlling terminal,
/// not in the caller's process group, so a terminal's Ctrl-C or hang-up does not reach it), with
/// standard input from `/dev/null`, standard output and error to a log file, and none of the
/// caller's other open files (a pipe it held would keep whoever reads the caller's output waiting).
enum DetachedProcess {
    /// glibc's `POSIX_SPAWN_SETSID` (`<spawn.h>` declares it only under `_GNU_SOURCE`).
    private static let setSessionFlag: Int32 = 0x80

    /// Starts `executable` with `arguments` in the current working directory and environment;
    /// returns its process id.
    static func spawn(executable: String, arguments: [String], log: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals the caller ignores (SIGPIPE) stay ignored; the others get their default action.
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(setSessionFlag | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        for fd in inheritableDescriptors() { posix_spawn_file_actions_addclose(&actions, fd) }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw KBError("cannot start \(executable): \(String(cString: strerror(result)))") }
        return pid
    }

    /// Open descriptors above standard error that a new program would inherit (no close-on-exec).
    private static func inheritableDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { fd in
            guard fd > 2 else { return false }
            let flags = fcntl(fd, F_GETFD)
            return flags >= 0 && flags & FD_CLOEXEC == 0
        }
    }
}
