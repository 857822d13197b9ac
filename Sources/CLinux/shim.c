// SwiftPM needs one source file in a C target; the helpers are static inline in the header.
#include "CLinux.h"
