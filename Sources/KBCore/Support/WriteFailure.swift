import Foundation

/// Why writing `path` failed, in words a user can act on (`Permission denied`, `is a folder`)
/// rather than Foundation's numbered errors.
public enum WriteFailure {
    public static func reason(_ error: Error, path: String? = nil) -> String {
        if let path {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return "\(path) is a folder" }
            // The nearest existing folder on the way: a file there blocks the path.
            var above = (path as NSString).deletingLastPathComponent
            while !above.isEmpty && above != "/" && !FileManager.default.fileExists(atPath: above, isDirectory: &isFolder) {
                above = (above as NSString).deletingLastPathComponent
            }
            if !above.isEmpty && above != "/" && !isFolder.boolValue { return "\(above) is a file, not a folder" }
        }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch error.code {
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "Permission denied"
        case NSFileWriteOutOfSpaceError: return "No space left on device"
        case NSFileWriteVolumeReadOnlyError: return "Read-only file system"
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "No such file or directory"
        default: return error.localizedDescription
        }
    }
}
