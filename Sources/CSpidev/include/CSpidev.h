#ifndef CSPIDEV_H
#define CSPIDEV_H
// Helpers for the spidev ioctls: the SPI_IOC_* request numbers are function-like macros that
// Swift cannot import, so each is wrapped here in a static inline function.
#include <linux/spi/spidev.h>
#endif
