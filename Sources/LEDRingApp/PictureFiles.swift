import Foundation

/// `--svg-dir DIR`: one SVG picture per frame, `frame-00000.svg`, `frame-00001.svg`, … in DIR.
struct PictureFiles {
    /// The directory the pictures go to.
    let directory: String

    /// Makes the directory if it is missing.
    init(directory: String) throws(CommandError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError("--svg-dir \(directory): cannot make the directory (\(error.localizedDescription)); give a directory you can write to",
                               code: .ioError)
        }
    }

    /// The file name of frame `index`.
    func path(ofFrame index: Int) -> String {
        let number = String(index)
        return directory + "/frame-" + String(repeating: "0", count: max(0, 5 - number.count)) + number + ".svg"
    }

    /// Writes one frame's picture.
    func write(_ svg: String, frame index: Int) throws(CommandError) {
        let path = path(ofFrame: index)
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError("--svg-dir: cannot write \(path) (\(error.localizedDescription)); check the disk and permissions",
                               code: .ioError)
        }
    }
}
