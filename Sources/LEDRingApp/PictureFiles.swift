import Glibc
import LEDSystem

/// `--svg-dir DIR`: one SVG picture per frame, `frame-00000.svg`, `frame-00001.svg`, … in DIR.
struct PictureFiles {
    /// The directory the pictures go to.
    let directory: String
    /// Where the files are written (a fake in tests).
    let system: any SystemCalls

    /// Makes the directory if it is missing.
    init(directory: String, system: any SystemCalls = RetryingSystemCalls(LinuxSystemCalls())) throws(CommandError) {
        self.directory = directory
        self.system = system
        system.makeDirectories(directory, mode: 0o755)
        let status: FileStatus
        do {
            status = try system.stat(directory)
        } catch {
            throw CommandError("--svg-dir \(directory): cannot make the directory (\(error)); give a directory you can write to",
                               code: .ioError)
        }
        guard status.isDirectory else {
            throw CommandError("--svg-dir \(directory): cannot make the directory (a file of that name is in the way); give a directory you can write to",
                               code: .ioError)
        }
    }

    /// The file name of frame `index`.
    func path(ofFrame index: Int) -> String {
        let number = String(index)
        return directory + "/frame-" + String(repeating: "0", count: max(0, 5 - number.count)) + number + ".svg"
    }

    /// Writes one frame's picture whole: to a temp file renamed over the name, so a viewer never
    /// sees half a picture.
    func write(_ svg: String, frame index: Int) throws(CommandError) {
        let path = path(ofFrame: index)
        let temporary = path + ".tmp"
        do throws(Errno) {
            let fd = try system.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
            do throws(Errno) {
                let bytes = Array(svg.utf8)
                var offset = 0
                while offset < bytes.count {
                    let n = try bytes.withUnsafeBytes { raw in
                        Result { () throws(Errno) -> Int in try system.write(fd, UnsafeRawBufferPointer(rebasing: raw[offset...])) }
                    }.get()
                    guard n > 0 else { throw Errno(rawValue: ENOSPC) }
                    offset += n
                }
            } catch {
                try? system.close(fd)
                throw error
            }
            try system.close(fd)
            try system.rename(temporary, path)
        } catch {
            try? system.unlink(temporary)
            throw CommandError("--svg-dir: cannot write \(path) (\(error)); check the disk and permissions", code: .ioError)
        }
    }
}
