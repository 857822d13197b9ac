import CMath

/// libm through one seam, so RingRender imports no platform module and also compiles in Embedded
/// Swift (see Sources/CMath/include/CMath.h). A namespace, so the names never collide with a
/// platform module's in code that imports both.
@usableFromInline enum LibM {
    /// `x` raised to `y` (`powf`).
    @usableFromInline static func powf(_ x: Float, _ y: Float) -> Float { ledring_powf(x, y) }
    /// The cube root of `x` (`cbrtf`).
    @usableFromInline static func cbrtf(_ x: Float) -> Float { ledring_cbrtf(x) }
    /// The angle of (`x`, `y`) in radians (`atan2f`).
    @usableFromInline static func atan2f(_ y: Float, _ x: Float) -> Float { ledring_atan2f(y, x) }
    /// The cosine of `x` radians (`cosf`).
    @usableFromInline static func cosf(_ x: Float) -> Float { ledring_cosf(x) }
    /// The sine of `x` radians (`sinf`).
    @usableFromInline static func sinf(_ x: Float) -> Float { ledring_sinf(x) }
    /// e raised to `x` (`exp`).
    @usableFromInline static func exp(_ x: Double) -> Double { ledring_exp(x) }
    /// The cosine of `x` radians (`cos`).
    @usableFromInline static func cos(_ x: Double) -> Double { ledring_cos(x) }
}
