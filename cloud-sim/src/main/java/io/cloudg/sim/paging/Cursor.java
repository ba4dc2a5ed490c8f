package io.cloudg.sim.paging;

/**
 * Where the next page of a listing starts.
 *
 * @param position   opaque tokens: the ordinal of the last item returned ({@link Long#MIN_VALUE} before the
 *                   first); offset tokens: the index of the next item
 * @param page       pages served so far
 * @param afterEmpty whether the last page was empty (an empty page never follows another)
 */
public record Cursor(long position, int page, boolean afterEmpty) {
    /** The start of a listing (no token). */
    public static final Cursor START = new Cursor(Long.MIN_VALUE, 0, false);
}
