package io.cloudg.diff;

import io.cloudg.inventory.Asset;
import java.util.Comparator;

/**
 * The order assets are compared in: by provider, account, region, type and id, each compared by Unicode
 * code point, which is the order of PostgreSQL's {@code COLLATE "C"} on UTF-8 text, so a map file and
 * a run read from PostgreSQL sort alike.
 */
public final class AssetOrder {
    /** Assets by identity. */
    public static final Comparator<Asset> BY_KEY = (a, b) -> {
        int c = compare(a.provider(), b.provider());
        if (c == 0) {
            c = compare(a.accountId(), b.accountId());
        }
        if (c == 0) {
            c = compare(a.region(), b.region());
        }
        if (c == 0) {
            c = compare(a.type(), b.type());
        }
        return c != 0 ? c : compare(a.id(), b.id());
    };

    private AssetOrder() {
    }

    /** Code-point order; null first. */
    public static int compare(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
