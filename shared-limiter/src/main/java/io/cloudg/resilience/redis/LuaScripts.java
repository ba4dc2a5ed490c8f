package io.cloudg.resilience.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Lua sources on the class path, as {@code EVALSHA} runs them: a file read next to its anchor class, and the
 * SHA-1 Redis calls the text by, computed here so that no round trip is needed to learn it. Used by the
 * governor's scripts and by every other module that keeps state in Redis scripts (the MCP guard).
 */
public final class LuaScripts {
    private LuaScripts() {
    }

    /** The file next to {@code anchor}, as it is. */
    public static String read(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name + " next to " + anchor.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The hex SHA-1 of {@code text}, the name {@code EVALSHA} knows it by. */
    public static String sha1(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
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
