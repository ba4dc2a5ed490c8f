package io.cloudg.sim.paging;

import io.cloudg.sim.config.ListingSpec;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;

/**
 * Cuts listings into pages the way the estate file says ({@link ListingSpec}): how many items a page
 * carries (full, short or empty, decided from the seed, the listing and the page number, never two empty
 * pages in a row, and never on the last page) and what its next token says (a sealed cursor, or an offset).
 * Every provider front end pages through here.
 *
 * <p>With opaque tokens the cursor is the ordinal of the last item returned and the next page starts at the
 * first item with a greater ordinal, so items created or deleted between two pages shift nothing: every item
 * that exists throughout is listed exactly once. Offset tokens count items, as the lenient profile always did.
 */
public final class Pager {
    private final ListingSpec.Effective spec;
    private final long seed;
    private final PageTokens tokens;

    public Pager(ListingSpec.Effective spec, long seed) {
        this.spec = spec;
        this.seed = seed;
        this.tokens = new PageTokens(spec.tokens() == ListingSpec.Tokens.OPAQUE, seed);
    }

    /**
     * One page and the token of the next (null when this is the last).
     *
     * @param <T> item type
     */
    public record Page<T>(List<T> items, String nextToken) {
        public boolean more() {
            return nextToken != null;
        }
    }

    /**
     * The page {@code token} asks for.
     *
     * @param listing what is being listed (operation and scope): tokens of other listings are refused
     * @param items   every item the listing has now, in ascending ordinal order
     * @param ordinal an item's ordinal (stable while items come and go); null: the item's index
     * @param token   the caller's token; null or empty for the first page
     * @param size    the page size asked for
     * @throws BadPageToken when the token is not one this listing issued
     */
    public <T> Page<T> page(String listing, List<T> items, ToLongFunction<T> ordinal, String token, int size) {
        boolean opaque = spec.tokens() == ListingSpec.Tokens.OPAQUE;
        Cursor c = token == null || token.isEmpty() ? Cursor.START : tokens.decode(listing, token);
        int start;
        if (c == Cursor.START) {
            start = 0;
        } else if (opaque) {
            start = after(items, ordinal, c.position());
        } else {
            if (c.position() < 0 || c.position() > items.size()) {
                throw new BadPageToken("an offset outside the listing");
            }
            start = (int) c.position();
        }
        int remaining = items.size() - start;
        int take = (int) Math.min(size, remaining);
        if (remaining > size && !spec.fullPages()) {
            SplittableRandom r = new SplittableRandom(seed ^ PageTokens.hash(listing) ^ (0x9E3779B97F4A7C15L * (c.page() + 1)));
            double u = r.nextDouble();
            if (u < spec.emptyPages() && !c.afterEmpty()) {
                take = 0;
            } else if (u < spec.emptyPages() + spec.shortPages() && size > 1) {
                take = 1 + r.nextInt(size - 1);
            }
        }
        int end = start + take;
        List<T> page = items.subList(start, end);
        if (end >= items.size()) {
            return new Page<>(page, null);
        }
        long position;
        if (!opaque) {
            position = end;
        } else if (take > 0) {
            position = ord(items, ordinal, end - 1);
        } else {
            position = start == 0 ? c.position() : ord(items, ordinal, start - 1);
        }
        Cursor next = new Cursor(position, c.page() + 1, take == 0);
        return new Page<>(page, tokens.encode(listing, next, !spec.fullPages()));
    }

    private static <T> long ord(List<T> items, ToLongFunction<T> ordinal, int i) {
        return ordinal == null ? i : ordinal.applyAsLong(items.get(i));
    }

    /** Index of the first item whose ordinal is greater than {@code position}. */
    private static <T> int after(List<T> items, ToLongFunction<T> ordinal, long position) {
        int lo = 0;
        int hi = items.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ord(items, ordinal, mid) <= position) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
