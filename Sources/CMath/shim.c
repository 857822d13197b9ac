// SwiftPM builds a C target only from sources; the functions are all inline in the header.
#include "CMath.h"
