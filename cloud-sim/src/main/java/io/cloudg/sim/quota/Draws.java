package io.cloudg.sim.quota;

/** Seeded draws that depend only on a seed and an index (never on call order). */
final class Draws {
    private Draws() {
    }

    /** A number in [0, 1). */
    static double uniform(long seed, long index) {
        return (mix(seed ^ mix(index + 0x632BE59BD9B4E019L)) >>> 11) * 0x1.0p-53;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** A stable 64-bit hash of a string (FNV-1a, then mixed). */
    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return mix(h);
    }
}
