package io.cloudg.sim.estate;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** Deterministic identifiers: the same seed and salt always give the same value. */
public final class Ids {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final char[] UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    private final long seed;

    public Ids(long seed) {
        this.seed = seed;
    }

    public SplittableRandom random(String salt) {
        return new SplittableRandom(mix(seed ^ hash(salt)));
    }

    public String hex(String salt, int n) {
        return chars(salt, n, HEX);
    }

    public String lowerAlnum(String salt, int n) {
        return chars(salt, n, LOWER_ALNUM);
    }

    public String upperAlnum(String salt, int n) {
        return chars(salt, n, UPPER_ALNUM);
    }

    /** {@code n} decimal digits, the first one non-zero. */
    public String digits(String salt, int n) {
        SplittableRandom r = random(salt);
        StringBuilder sb = new StringBuilder(n);
        sb.append((char) ('1' + r.nextInt(9)));
        for (int i = 1; i < n; i++) {
            sb.append((char) ('0' + r.nextInt(10)));
        }
        return sb.toString();
    }

    public String uuid(String salt) {
        String h = hex(salt, 32);
        return h.substring(0, 8) + "-" + h.substring(8, 12) + "-4" + h.substring(13, 16) + "-a" + h.substring(17, 20)
            + "-" + h.substring(20, 32);
    }

    private String chars(String salt, int n, char[] alphabet) {
        SplittableRandom r = random(salt);
        char[] out = new char[n];
        for (int i = 0; i < n; i++) {
            out[i] = alphabet[r.nextInt(alphabet.length)];
        }
        return new String(out);
    }

    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b;
            h *= 0x100000001b3L;
        }
        return h;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
