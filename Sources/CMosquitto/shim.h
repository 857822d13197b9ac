// libmosquitto's C API for Swift. Package.swift adds this module only when it found mosquitto.h
// (and then defines LEDRING_MQTT for LEDRingNet); only LEDRingNet/MQTT/*.swift imports it.
#include <mosquitto.h>
