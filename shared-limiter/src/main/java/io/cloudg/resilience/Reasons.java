package io.cloudg.resilience;

import io.cloudg.resilience.spi.ErrorClass;

/**
 * The wording of what a call or a task lost, in one place: the {@code error} of a PARTIAL or FAILED coverage
 * entry and the throttling report's {@code skipped} reasons start with {@link #THROTTLED} when throttling is
 * among the causes, else {@link #TRANSIENT}, so that a reader (a person, a retry, the Azure summary) can tell
 * them apart by that prefix alone.
 * <ul>
 *   <li>one call given up: {@code throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded: ...}
 *       ({@link #gaveUp});</li>
 *   <li>a task's calls lost: {@code throttled: 1 call(s) gave up after retries (...); 2 call(s) skipped by open
 *       circuit (...)} ({@link #lost}, what {@link TaskLedger#incompleteReason()} says);</li>
 *   <li>a call refused by an open circuit: {@code throttled: circuit open for ...} ({@link #circuitOpen}).</li>
 * </ul>
 */
public final class Reasons {
    /** The prefix of a reason throttling is among the causes of. */
    public static final String THROTTLED = "throttled: ";
    /** The prefix of a reason of transient errors only. */
    public static final String TRANSIENT = "transient: ";

    private Reasons() {
    }

    /** {@link #THROTTLED} for a throttled answer, {@link #TRANSIENT} for any other. */
    public static String prefix(ErrorClass c) {
        return prefix(c == ErrorClass.THROTTLED);
    }

    public static String prefix(boolean throttled) {
        return throttled ? THROTTLED : TRANSIENT;
    }

    /** Whether {@code reason} (a coverage entry's error, maybe null) says throttling is among its causes. */
    public static boolean throttled(String reason) {
        return reason != null && reason.startsWith(THROTTLED);
    }

    /** {@code reason} with the prefix of {@code c}, unless it already starts with that prefix. */
    public static String prefixed(ErrorClass c, String reason) {
        String p = prefix(c);
        return reason.startsWith(p) ? reason : p + reason;
    }

    /** One call given up: {@code throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded: ...}. */
    public static String gaveUp(ErrorClass c, String operation, String why, String summary) {
        return prefix(c) + operation + " (" + why + "): " + summary;
    }

    /** A call refused by an open circuit: throttling (an open circuit follows throttles or failures it counts as such). */
    public static String circuitOpen(String breakerMessage) {
        return THROTTLED + breakerMessage;
    }

    /**
     * What a task lost: {@code throttled: 1 call(s) gave up after retries (first reason)} and/or
     * {@code N call(s) skipped by open circuit (first reason)}, joined by {@code ; }.
     *
     * @param throttled whether throttling is among the causes
     */
    public static String lost(boolean throttled, int gaveUp, String firstGaveUp, int skipped, String firstSkipped) {
        StringBuilder b = new StringBuilder(prefix(throttled));
        if (gaveUp > 0) {
            b.append(gaveUp).append(" call(s) gave up after retries (").append(firstGaveUp).append(')');
        }
        if (skipped > 0) {
            if (gaveUp > 0) {
                b.append("; ");
            }
            b.append(skipped).append(" call(s) skipped by open circuit (").append(firstSkipped).append(')');
        }
        return b.toString();
    }
}
