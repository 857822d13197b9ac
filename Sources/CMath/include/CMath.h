// The C maths the pure targets use (RingRender, LEDWire, LEDPresentation), as static inline
// wrappers over the compiler's builtins. The same Swift code then builds against glibc on Linux and in Embedded
// Swift for a bare target (aarch64/armv6/armv7-none-none-elf), where no Glibc module exists; either
// way the builtins become calls to libm's functions (linked with -lm).
#ifndef LEDRING_CMATH_H
#define LEDRING_CMATH_H

static inline float ledring_powf(float x, float y) { return __builtin_powf(x, y); }
static inline float ledring_cbrtf(float x) { return __builtin_cbrtf(x); }
static inline float ledring_atan2f(float y, float x) { return __builtin_atan2f(y, x); }
static inline float ledring_cosf(float x) { return __builtin_cosf(x); }
static inline float ledring_sinf(float x) { return __builtin_sinf(x); }
static inline double ledring_exp(double x) { return __builtin_exp(x); }
static inline double ledring_cos(double x) { return __builtin_cos(x); }
static inline double ledring_sin(double x) { return __builtin_sin(x); }

#endif
