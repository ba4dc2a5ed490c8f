package io.cloudg.mcp.guard;

import java.util.Objects;

/**
 * What a live operation touches, at the granularity the guard rails count: {@code aws/123456789012},
 * {@code aws/profile:prod}, {@code aws}, {@code azure/<subscription>}, {@code azure/tenant:<id>},
 * {@code gcp/<project>}, {@code gcp/org:<id>}... ({@link LiveScopes} derives them from the configuration).
 *
 * @param provider aws, azure or gcp (its per-provider cooldown applies)
 * @param id the account, subscription or project (or {@code profile:...}, {@code tenant:...},
 *        {@code org:...}), or null for the whole provider
 */
public record LiveScope(String provider, String id) implements Comparable<LiveScope> {
    public LiveScope {
        Objects.requireNonNull(provider, "provider");
    }

    /** Parses {@code aws/123456789012} or {@code aws}. */
    public static LiveScope parse(String s) {
        int slash = s.indexOf('/');
        return slash < 0 ? new LiveScope(s, null) : new LiveScope(s.substring(0, slash), s.substring(slash + 1));
    }

    @Override
    public String toString() {
        return id == null ? provider : provider + "/" + id;
    }

    @Override
    public int compareTo(LiveScope o) {
        return toString().compareTo(o.toString());
    }
}
