import Glibc

/// How spidev rounds each transfer up before counting it against `bufsiz`.
///
/// `spidev_message()` (drivers/spi/spidev.c) charges a transfer of `len` bytes as
/// `ALIGN(len, ARCH_KMALLOC_MINALIGN)` (Christian Eggers' 2020 patch, lore.kernel.org
/// 20200728100832.24788-1-ceggers@arri.de, also taken into the stable kernels; Debian 12's 6.1
/// has it) or, since Catalin Marinas' kmalloc-minalign series, `ALIGN(len, ARCH_DMA_MINALIGN)`,
/// and answers `EMSGSIZE` when the running total exceeds `bufsiz`. So a transfer of `bufsiz` bytes is
/// refused whenever `bufsiz` is not a multiple of the alignment; the longest transfer that goes
/// through is `bufsiz` rounded down to it. Checked against a real kernel by
/// tools/spi-capture-test.sh (x86-64, Debian's 6.1: 8 bytes).
public enum SPIDevAlignment {
    /// The alignment, in bytes, for a kernel whose `uname -m` is `machine`.
    ///
    /// - aarch64 (and armv8l, the 32-bit personality on a 64-bit kernel): 128 —
    ///   arch/arm64/include/asm/cache.h `#define ARCH_DMA_MINALIGN (128)`, which before 6.5 also
    ///   set ARCH_KMALLOC_MINALIGN (include/linux/slab.h takes ARCH_DMA_MINALIGN when it is over 8).
    /// - armv7l: 64 — arch/arm/include/asm/cache.h `ARCH_DMA_MINALIGN L1_CACHE_BYTES`, and ARMv7
    ///   kernels (Raspberry Pi OS kernel7/kernel7l) build with CONFIG_ARM_L1_CACHE_SHIFT=6.
    /// - armv6l: 32 — the same with CONFIG_ARM_L1_CACHE_SHIFT=5 (Pi 1 and Zero kernels).
    /// - x86_64, i686: 8 — x86 leaves both constants to the generic `__alignof__(unsigned long
    ///   long)`; measured on Debian 12's kernel under QEMU.
    /// - anything else: 128, the largest any of these uses, so ledring never sends a transfer
    ///   the kernel refuses (at worst it refuses a frame a few bytes early).
    public static func bytes(forMachine machine: String) -> Int {
        switch machine {
        case "aarch64", "arm64", "armv8l", "armv8b": 128
        case "armv7l", "armv7b": 64
        case "armv6l", "armv5tel", "armv5tejl": 32
        case "x86_64", "i386", "i486", "i586", "i686": 8
        default: 128
        }
    }

    /// The running kernel's machine name (`uname -m`), or "" when uname fails.
    public static func runningMachine() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "" }
        return withUnsafeBytes(of: &names.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The alignment of the running kernel.
    public static var running: Int { bytes(forMachine: runningMachine()) }

    /// The longest transfer spidev takes with `bufsiz` and `alignment`: `bufsiz` rounded down.
    public static func largestTransfer(bufsiz: Int, alignment: Int) -> Int {
        let step = max(alignment, 1)
        return bufsiz / step * step
    }
}
