/// The parts of `stat(2)` ledring needs: what the node is, which group owns it, how big it is.
public struct FileStatus: Hashable, Sendable {
    /// True for a character device such as `/dev/spidev0.0`.
    public var isCharacterDevice: Bool
    /// True for a directory.
    public var isDirectory: Bool
    /// The owning group id, used to name the group a user must join.
    public var groupID: UInt32
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: UInt32
    /// Size in bytes (`st_size`), so a file can be refused before it is read.
    public var size: Int

    /// Creates a status value (the fake seam builds these directly).
    public init(isCharacterDevice: Bool = false, isDirectory: Bool = false, groupID: UInt32 = 0, permissions: UInt32 = 0o660,
                size: Int = 0) {
        self.isCharacterDevice = isCharacterDevice
        self.isDirectory = isDirectory
        self.groupID = groupID
        self.permissions = permissions
        self.size = size
    }
}
