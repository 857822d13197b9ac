#ifndef CLINUX_H
#define CLINUX_H
// The parts of the Linux ABI that Swift's Glibc module cannot reach, for the LEDSystem seam:
// - the spidev and GPIO chip ioctls, whose request numbers (SPI_IOC_*, GPIO_GET_CHIPINFO_IOCTL)
//   are function-like macros Swift cannot import, each wrapped in a static inline function;
// - accept4(2) and pipe2(2), which glibc declares only under _GNU_SOURCE;
// - open(2)'s variadic mode argument, and stat(2)'s S_IS* file-type macros;
// - posix_spawn_file_actions_addclosefrom_np, for spawned commands.
// Each returns the call's result (-1 with errno set on failure) so the Swift seam maps errno in
// one place.
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/spi/spidev.h>
#include <linux/gpio.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <sys/stat.h>

// accept4(2) and pipe2(2) are declared by glibc only under _GNU_SOURCE, which Swift's Glibc module
// is not built with; these are glibc's own prototypes (sys/socket.h, unistd.h), so the seam can ask
// for close-on-exec and non-blocking descriptors atomically instead of with a racy fcntl after.
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
extern int pipe2(int fds[2], int flags);
// posix_spawn_file_actions_addclosefrom_np (glibc 2.34, spawn.h under __USE_MISC, also hidden from
// Swift's Glibc module): the spawned program gets no descriptor of the daemon's past 0, 1 and 2.
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
/// accept4(2) without the peer's address (Unix sockets have none worth reading).
static inline int cledring_accept4(int fd, int flags) { return accept4(fd, 0, 0, flags); }
/// open(2) always with a mode: Swift cannot call the variadic `open`, and only Glibc's Swift
/// overlay (absent in Embedded Swift) wraps it, so both builds open files through this.
static inline int cledring_open(const char *path, int flags, unsigned int mode) { return open(path, flags, (mode_t)mode); }
/// What kind of node a `st_mode` describes. The S_IF* constants are imported twice on the host (as
/// C macros and, typed, by Glibc's overlay) and only once in Embedded Swift, so the test is made here.
enum cledring_file_kind {
    cledring_file_other, cledring_file_directory, cledring_file_characterDevice, cledring_file_blockDevice,
    cledring_file_fifo, cledring_file_socket, cledring_file_symbolicLink
};
static inline enum cledring_file_kind cledring_file_type(unsigned int mode) {
    if (S_ISDIR(mode)) return cledring_file_directory;
    if (S_ISCHR(mode)) return cledring_file_characterDevice;
    if (S_ISBLK(mode)) return cledring_file_blockDevice;
    if (S_ISFIFO(mode)) return cledring_file_fifo;
    if (S_ISSOCK(mode)) return cledring_file_socket;
    if (S_ISLNK(mode)) return cledring_file_symbolicLink;
    return cledring_file_other;
}
/// pipe2(2): `fds[0]` is the read end, `fds[1]` the write end.
static inline int cledring_pipe2(int *fds, int flags) { return pipe2(fds, flags); }

/// The request number for SPI_IOC_WR_MODE (set SPI mode, one byte).
static inline unsigned long cspidev_req_wr_mode(void) { return SPI_IOC_WR_MODE; }
/// The request number for SPI_IOC_RD_MODE (read SPI mode, one byte).
static inline unsigned long cspidev_req_rd_mode(void) { return SPI_IOC_RD_MODE; }
/// The request number for SPI_IOC_WR_BITS_PER_WORD.
static inline unsigned long cspidev_req_wr_bits(void) { return SPI_IOC_WR_BITS_PER_WORD; }
/// The request number for SPI_IOC_RD_BITS_PER_WORD.
static inline unsigned long cspidev_req_rd_bits(void) { return SPI_IOC_RD_BITS_PER_WORD; }
/// The request number for SPI_IOC_WR_MAX_SPEED_HZ.
static inline unsigned long cspidev_req_wr_speed(void) { return SPI_IOC_WR_MAX_SPEED_HZ; }
/// The request number for SPI_IOC_RD_MAX_SPEED_HZ.
static inline unsigned long cspidev_req_rd_speed(void) { return SPI_IOC_RD_MAX_SPEED_HZ; }
/// The request number for SPI_IOC_MESSAGE(1).
static inline unsigned long cspidev_req_message1(void) { return SPI_IOC_MESSAGE(1); }

/// Sets the SPI mode (0..3).
static inline int cspidev_write_mode(int fd, uint8_t mode) { return ioctl(fd, SPI_IOC_WR_MODE, &mode); }
/// Reads the SPI mode the driver holds.
static inline int cspidev_read_mode(int fd, uint8_t *mode) { return ioctl(fd, SPI_IOC_RD_MODE, mode); }
/// Sets the word size in bits.
static inline int cspidev_write_bits_per_word(int fd, uint8_t bits) { return ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits); }
/// Reads the word size the driver holds.
static inline int cspidev_read_bits_per_word(int fd, uint8_t *bits) { return ioctl(fd, SPI_IOC_RD_BITS_PER_WORD, bits); }
/// Sets the maximum clock in Hz.
static inline int cspidev_write_max_speed_hz(int fd, uint32_t hz) { return ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &hz); }
/// Reads the maximum clock the driver accepted, in Hz.
static inline int cspidev_read_max_speed_hz(int fd, uint32_t *hz) { return ioctl(fd, SPI_IOC_RD_MAX_SPEED_HZ, hz); }

/// Sends one transmit-only transfer: one SPI_IOC_MESSAGE(1), so chip select and clock run
/// without a gap for the whole buffer (a gap mid-frame would latch half a WS2812 frame).
/// Returns the number of bytes transferred, or -1 with errno set.
static inline int cspidev_transfer(int fd, const void *tx, uint32_t length, uint32_t speed_hz, uint8_t bits_per_word) {
    struct spi_ioc_transfer transfer;
    // Zeroed so rx_buf is NULL (transmit only) and delay/cs_change/pad fields are defined.
    memset(&transfer, 0, sizeof transfer);
    transfer.tx_buf = (uint64_t)(uintptr_t)tx;
    transfer.len = length;
    transfer.speed_hz = speed_hz;
    transfer.bits_per_word = bits_per_word;
    return ioctl(fd, SPI_IOC_MESSAGE(1), &transfer);
}

/// GPIO_GET_CHIPINFO_IOCTL on a /dev/gpiochipN descriptor (include/uapi/linux/gpio.h, the call
/// libgpiod's gpiod_chip_get_info and `gpiodetect` make): copies the chip's name and label
/// (each up to 32 bytes plus NUL, so both buffers must hold 33) and its line count.
static inline int clinux_gpio_chip_info(int fd, char *name, char *label, uint32_t *lines) {
    struct gpiochip_info info;
    memset(&info, 0, sizeof info);
    int result = ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info);
    if (result < 0) return result;
    memcpy(name, info.name, sizeof info.name);
    name[sizeof info.name] = 0;
    memcpy(label, info.label, sizeof info.label);
    label[sizeof info.label] = 0;
    *lines = info.lines;
    return result;
}
#endif /* CLINUX_H */
