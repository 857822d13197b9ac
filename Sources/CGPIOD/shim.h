// libgpiod's C API for Swift. Package.swift adds this module only when it found gpiod.h, and tells
// LEDHardware which API the header has (GPIOD_V1 for 1.6, GPIOD_V2 for 2.x); only
// LEDHardware/GPIO/LibgpiodV1Lines.swift and LibgpiodV2Lines.swift import it.
#include <gpiod.h>
