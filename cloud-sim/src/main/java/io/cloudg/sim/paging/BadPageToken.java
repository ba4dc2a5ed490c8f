package io.cloudg.sim.paging;

/** A page token the listing did not issue (malformed, tampered with, or from another listing). */
public final class BadPageToken extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadPageToken(String message) {
        super(message, null, false, false);
    }
}
