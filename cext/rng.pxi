# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- random numbers

cdef uint64_t rng_next(uint64_t* r) noexcept nogil:
    # xorshift64*: tiny state, fast, good enough for shuffles and playouts
    cdef uint64_t x = r[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    r[0] = x
    return x * <uint64_t>2685821657736338717ULL


cdef uint32_t rng_below(uint64_t* r, uint32_t n) noexcept nogil:
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef uint64_t seed_mix(uint64_t x) noexcept nogil:
    # splitmix64: spreads nearby seeds apart and never returns the forbidden all-zero xorshift state
    x += <uint64_t>0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    x = x ^ (x >> 31)
    if x == 0:
        x = 1
    return x
