// libmosquitto's C API for Swift, loaded at run time. Package.swift adds this target only when it
// found mosquitto.h (and then defines LEDRING_MQTT for LEDRingNet); only LEDRingNet/MQTT imports it.
//
// ledring does not link libmosquitto: linking it (and the TLS libraries it pulls in) costs every
// `ledring run` about 4.5 MB of memory whether or not MQTT is configured. The functions ledring
// uses are defined in loader.c under their own names and forward to the library once
// `ledring_mosquitto_load` has opened it, so the Swift code calls the documented API unchanged.
#include <stddef.h>
#include <mosquitto.h>

/// Opens libmosquitto (once; later calls return the first answer) and calls mosquitto_lib_init.
/// Returns 0, or -1 with what went wrong (dlerror's text, or the missing symbol) in `error`.
int ledring_mosquitto_load(char *error, size_t size);
