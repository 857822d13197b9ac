/// The parts of `stat(2)` ledring needs: what the node is, who owns it, how big it is.
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
    /// True for a Unix socket's name (a stale one may be left by a crashed daemon).
    public var isSocket: Bool
    /// True for a named pipe.
    public var isFIFO: Bool
    /// True for a symbolic link (only `lstat` reports one).
    public var isSymbolicLink: Bool
    /// True for a block device (a disk).
    public var isBlockDevice: Bool
    /// The owning user id (`st_uid`): a socket in /tmp made by another user is not trusted.
    public var ownerID: UInt32

    /// A regular file: none of the other kinds.
    public var isRegularFile: Bool {
        !(isCharacterDevice || isDirectory || isSocket || isFIFO || isSymbolicLink || isBlockDevice)
    }

    /// Creates a status value (the fake seam builds these directly).
    public init(isCharacterDevice: Bool = false, isDirectory: Bool = false, groupID: UInt32 = 0, permissions: UInt32 = 0o660,
                size: Int = 0, isSocket: Bool = false, isFIFO: Bool = false, isSymbolicLink: Bool = false,
                isBlockDevice: Bool = false, ownerID: UInt32 = 0) {
        self.isCharacterDevice = isCharacterDevice
        self.isDirectory = isDirectory
        self.groupID = groupID
        self.permissions = permissions
        self.size = size
        self.isSocket = isSocket
        self.isFIFO = isFIFO
        self.isSymbolicLink = isSymbolicLink
        self.isBlockDevice = isBlockDevice
        self.ownerID = ownerID
    }
}
