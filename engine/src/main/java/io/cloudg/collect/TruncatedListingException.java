package io.cloudg.collect;

/**
 * Thrown by a collector whose paged listing was cut short by an error after it had handed some pages'
 * assets to the sink. Those assets stay in the map; the entry is PARTIAL (not FAILED) and its error reads
 * {@code listing truncated: <what the cause says>}, e.g.
 * {@code listing truncated: throttled: 1 call(s) gave up after retries (...)}. The cause MUST be the
 * error that ended the listing; collectors use this only for errors a retry could have cured (throttling,
 * transient failures, an open circuit) and let fatal ones escape as they are.
 */
public final class TruncatedListingException extends Exception {
    private static final long serialVersionUID = 1L;

    public TruncatedListingException(String what, Throwable cause) {
        super(what + " truncated", cause);
        if (cause == null) {
            throw new IllegalArgumentException("a truncated listing needs the error that cut it short");
        }
    }
}
