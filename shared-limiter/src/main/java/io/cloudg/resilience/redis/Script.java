package io.cloudg.resilience.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The Lua scripts of the Redis backend, each {@code common.lua} + its own file with its {@code --@include}
 * lines replaced by the helper files they name (a script defines only what it runs, where it runs it: every
 * function definition executes on every call), and the SHA-1 that {@code EVALSHA} calls them by (computed
 * here, so no round trip is needed to learn it).
 */
enum Script {
    /** Breaker, leaf, account bucket and bulkhead slot before an attempt. */
    ADMIT("admit.lua"),
    /** AIMD, breaker verdict and slot release after an attempt. */
    RECORD("record.lua"),
    /** Bulkhead lease operations. */
    SLOTS("slots.lua"),
    /** The provider-wide bucket. */
    GLOBAL("global.lua"),
    /** The retry budget. */
    BUDGET("budget.lua"),
    /** Several ADMIT and RECORD calls in one run (what a lane queued, in order). */
    BATCH("batch.lua");

    private static final String INCLUDE = "--@include ";

    final String text;
    final String sha;
    /** {@link #sha} as the bytes sent on the wire. */
    final byte[] shaBytes;

    Script(String file) {
        this.text = read("common.lua") + "\n" + expand(file);
        this.sha = sha1(text);
        this.shaBytes = sha.getBytes(StandardCharsets.US_ASCII);
    }

    /** The file with its {@code --@include} lines replaced by the files they name (themselves expanded). */
    private static String expand(String file) {
        StringBuilder b = new StringBuilder();
        for (String line : read(file).split("\n", -1)) {
            if (line.trim().startsWith(INCLUDE)) {
                for (String included : line.trim().substring(INCLUDE.length()).trim().split("\\s+")) {
                    b.append(expand(included)).append('\n');
                }
            } else {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }

    private static String read(String name) {
        try (InputStream in = Script.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8));
            StringBuilder b = new StringBuilder(40);
            for (byte x : d) {
                b.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
            }
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
