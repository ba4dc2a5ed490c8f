package io.cloudg.resilience.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The Lua scripts of the Redis backend, each {@code common.lua} + its own file, and the SHA-1 that
 * {@code EVALSHA} calls them by (computed here, so no round trip is needed to learn it).
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
    BUDGET("budget.lua");

    final String text;
    final String sha;

    Script(String file) {
        this.text = read("common.lua") + "\n" + read(file);
        this.sha = sha1(text);
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
