package io.cloudg.mcp.guard.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The guard's Lua scripts and the SHA-1 that {@code EVALSHA} calls each by (computed here, no round trip). */
enum GuardScript {
    /** {@code GuardRules.decide} and the registration of a start. */
    START("start.lua"),
    /** The heartbeat of a running operation: extend its registration. */
    RENEW("renew.lua"),
    /** The end of an operation: free its scopes, start their cooldowns. */
    FINISH("finish.lua"),
    /** Read-only view for {@code rate_limit_status}. */
    SNAPSHOT("snapshot.lua");

    final String text;
    final String sha;

    GuardScript(String file) {
        try (InputStream in = GuardScript.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + file);
            }
            this.text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.sha = sha1(text);
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
