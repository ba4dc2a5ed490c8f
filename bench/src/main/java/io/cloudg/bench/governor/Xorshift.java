package io.cloudg.bench.governor;

/**
 * How the governor benchmarks pick the leaf of each call: a xorshift step (a few ns, the same for every
 * contender), then a uniform index. Random rather than round-robin, so threads that once met on a leaf do
 * not stay in lockstep (a convoy that a real workload would not form).
 */
final class Xorshift {
    private Xorshift() {
    }

    static long next(long v) {
        v ^= v << 13;
        v ^= v >>> 7;
        v ^= v << 17;
        return v;
    }

    /** An index in [0, size) from {@code v}'s high bits. */
    static int pick(long v, int size) {
        return (int) (((v >>> 33) * size) >>> 31);
    }
}
