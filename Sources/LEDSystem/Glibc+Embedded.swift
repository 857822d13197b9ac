#if hasFeature(Embedded)
import Glibc

// Embedded Swift has no Glibc overlay: the build scripts give it a clang module named Glibc over
// the C library's headers (tools/embedded/Glibc), and this file adds back what the overlay writes
// in Swift, so the shared sources read the same in both builds.

/// The calling thread's `errno` (the overlay's variable, over the C macro).
public var errno: Int32 {
    get { ledring_errno_get() }
    set { ledring_errno_set(newValue) }
}

/// The default action for a signal (`SIG_DFL`, a null handler).
public var SIG_DFL: __sighandler_t? { nil }

/// Ignore the signal (`SIG_IGN`).
public var SIG_IGN: __sighandler_t? { ledring_sig_ign() }
#endif
