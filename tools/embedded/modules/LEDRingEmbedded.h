// What the Embedded Swift build of ledring needs from C beyond the C library (runtime.c).
#ifndef LEDRING_EMBEDDED_H
#define LEDRING_EMBEDDED_H
/// The process's argument count, captured before main (Embedded Swift has no CommandLine).
int ledring_argc(void);
/// The process's arguments (argv[0] is the program).
char **ledring_argv(void);
#endif
