package io.cloudg.sim.paging;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Page tokens, as one of two styles:
 * <ul>
 *   <li>{@code opaque}: a sealed cursor, {@code base64url(tag || payload XOR keystream)} where the payload is
 *       the listing's hash, the cursor's position and page number, the tag is an HMAC-SHA256 (keyed from the
 *       seed) of the payload, and the keystream an HMAC of the tag. It reads as random bytes, cannot be
 *       edited, and is refused by any other listing;</li>
 *   <li>{@code offset}: {@code base64url("sim|" + listing hash + "|" + offset [+ "|" + page + "|" + e])}, the
 *       plain offsets of the lenient profile.</li>
 * </ul>
 */
final class PageTokens {
    private static final int TAG = 12;
    private static final int PAYLOAD = 8 + 8 + 4 + 1;

    private final boolean opaque;
    private final SecretKeySpec key;

    PageTokens(boolean opaque, long seed) {
        this.opaque = opaque;
        byte[] k = ByteBuffer.allocate(16).putLong(seed).putLong(seed * 0x9E3779B97F4A7C15L + 0x5EA1EDL).array();
        this.key = new SecretKeySpec(k, "HmacSHA256");
    }

    String encode(String listing, Cursor c, boolean withPage) {
        if (!opaque) {
            String raw = "sim|" + Long.toHexString(hash(listing)) + "|" + c.position()
                + (withPage ? "|" + c.page() + "|" + (c.afterEmpty() ? "e" : "f") : "");
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }
        byte[] payload = ByteBuffer.allocate(PAYLOAD).putLong(hash(listing)).putLong(c.position()).putInt(c.page())
            .put((byte) (c.afterEmpty() ? 1 : 0)).array();
        byte[] tag = Arrays.copyOf(mac(payload), TAG);
        byte[] stream = mac(tag);
        byte[] out = Arrays.copyOf(tag, TAG + PAYLOAD);
        for (int i = 0; i < PAYLOAD; i++) {
            out[TAG + i] = (byte) (payload[i] ^ stream[i]);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
    }

    Cursor decode(String listing, String token) {
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            throw new BadPageToken("not a token of this listing");
        }
        if (!opaque) {
            String[] p = new String(raw, StandardCharsets.UTF_8).split("\\|");
            try {
                if ((p.length == 3 || p.length == 5) && p[0].equals("sim") && p[1].equals(Long.toHexString(hash(listing)))) {
                    long position = Long.parseLong(p[2]);
                    return p.length == 3 ? new Cursor(position, 0, false)
                        : new Cursor(position, Integer.parseInt(p[3]), p[4].equals("e"));
                }
            } catch (NumberFormatException e) {
                // refused below
            }
            throw new BadPageToken("not a token of this listing");
        }
        if (raw.length != TAG + PAYLOAD) {
            throw new BadPageToken("not a token of this listing");
        }
        byte[] tag = Arrays.copyOf(raw, TAG);
        byte[] stream = mac(tag);
        byte[] payload = new byte[PAYLOAD];
        for (int i = 0; i < PAYLOAD; i++) {
            payload[i] = (byte) (raw[TAG + i] ^ stream[i]);
        }
        if (!java.security.MessageDigest.isEqual(tag, Arrays.copyOf(mac(payload), TAG))) {
            throw new BadPageToken("not a token of this listing");
        }
        ByteBuffer b = ByteBuffer.wrap(payload);
        if (b.getLong() != hash(listing)) {
            throw new BadPageToken("a token of another listing");
        }
        return new Cursor(b.getLong(), b.getInt(), b.get() == 1);
    }

    private byte[] mac(byte[] data) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(key);
            return m.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        return h ^ (h >>> 33);
    }
}
