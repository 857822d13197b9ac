/// Joins a root directory and an absolute-looking path, so `--root /tmp/fake` reads
/// `/tmp/fake/proc/device-tree/model` instead of the host's.
public enum RootPath {
    /// `join("/", "sys/x")` is `/sys/x`; `join("/tmp/r", "/sys/x")` is `/tmp/r/sys/x`.
    public static func join(_ root: String, _ path: String) -> String {
        var trimmedRoot = root
        while trimmedRoot.count > 1 && trimmedRoot.hasSuffix("/") { trimmedRoot.removeLast() }
        let relative = path.drop(while: { $0 == "/" })
        if trimmedRoot == "/" || trimmedRoot.isEmpty { return "/" + relative }
        return trimmedRoot + "/" + relative
    }
}
