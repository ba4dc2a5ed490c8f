package io.cloudg.sim.config;

/**
 * How listings page ({@code listings:} in the estate file).
 *
 * <pre>
 * listings: {short_pages: 0.1, empty_pages: 0.05, tokens: opaque}
 * </pre>
 *
 * <p>A short page carries fewer items than the page size, an empty page none, and both still carry a next
 * token when more follow (as real services do, e.g. EC2 with filters). Which pages are short or empty is
 * drawn from the seed, the listing and the page number; an empty page never follows another. {@code opaque}
 * tokens are sealed cursors (the last item returned, in a stable order), so items created or deleted
 * between two pages neither shift nor repeat the rest; {@code offset} tokens are the plain offsets the
 * lenient profile has always used.
 *
 * @param shortPages share of pages (with more to follow) cut short; null: the profile's default
 * @param emptyPages share of pages (with more to follow) answered empty; null: the profile's default
 * @param tokens     page token style; null: the profile's default
 */
public record ListingSpec(Double shortPages, Double emptyPages, Tokens tokens) {
    /** Nothing set: every value is the profile's. */
    public static final ListingSpec DEFAULT = new ListingSpec(null, null, null);

    /** Page token style. */
    public enum Tokens { OPAQUE, OFFSET }

    /** The values in effect under {@code realism}. */
    public Effective effective(Realism realism) {
        boolean strict = realism.strict();
        return new Effective(shortPages != null ? shortPages : strict ? 0.1 : 0,
            emptyPages != null ? emptyPages : strict ? 0.05 : 0,
            tokens != null ? tokens : strict ? Tokens.OPAQUE : Tokens.OFFSET);
    }

    /** Resolved values. */
    public record Effective(double shortPages, double emptyPages, Tokens tokens) {
        public boolean fullPages() {
            return shortPages == 0 && emptyPages == 0;
        }
    }

    static ListingSpec read(SpecNode n) {
        if (!n.present()) {
            return DEFAULT;
        }
        n.onlyKeys("short_pages", "empty_pages", "tokens");
        Double s = n.get("short_pages").present() ? n.get("short_pages").fraction(0, true) : null;
        Double e = n.get("empty_pages").present() ? n.get("empty_pages").fraction(0, true) : null;
        if (s != null && e != null && s + e >= 1) {
            throw n.get("empty_pages").error("short_pages + empty_pages must be less than 1, got " + s + " + " + e);
        }
        Tokens t = null;
        String ts = n.get("tokens").string(null);
        if (ts != null) {
            t = switch (ts) {
                case "opaque" -> Tokens.OPAQUE;
                case "offset" -> Tokens.OFFSET;
                default -> throw n.get("tokens").error("expected opaque or offset, got \"" + ts + "\"");
            };
        }
        return new ListingSpec(s, e, t);
    }
}
