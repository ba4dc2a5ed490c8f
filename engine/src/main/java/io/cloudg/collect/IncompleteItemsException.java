package io.cloudg.collect;

/**
 * Thrown by a collector that listed everything but could not read all of it: some per-item calls (an S3
 * bucket's location, a key's rotation status, one cluster's services) failed. The assets it handed to the
 * sink stay in the map, each with what it could not read named in its {@code detail_errors}; the entry is
 * PARTIAL and its error reads {@code 2 of 40 per-item call(s) failed: GetBucketLocation on my-bucket:
 * AccessDenied: ...} (the first failure). A field the calls could not read is left out, never filled with a
 * plausible default.
 */
public final class IncompleteItemsException extends Exception {
    private static final long serialVersionUID = 1L;

    public IncompleteItemsException(int failed, int calls, String first) {
        super(failed + " of " + calls + " per-item call(s) failed: " + first);
        if (failed < 1 || first == null) {
            throw new IllegalArgumentException("an incomplete result needs at least one failure and its reason");
        }
    }
}
