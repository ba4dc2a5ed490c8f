package io.cloudg.azure;

import com.azure.core.http.HttpHeaders;
import io.cloudg.resilience.Classification;
import io.cloudg.resilience.core.QuotaWindow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Resource Graph's per-user quota window, as its answers show it. Every answer carries
 * {@code x-ms-user-quota-remaining} (queries left in the current window) and
 * {@code x-ms-user-quota-resets-after} ({@code hh:mm:ss} until the window resets); a throttled one says
 * {@code 0} and when the window resets, but not how many queries a window grants nor how long it is. Those
 * two are learned here from the answers that came before: the most ever remaining plus the query that
 * answer was for is the window's quota (15 by default), the longest time to a reset the window's length
 * (5 s), both exact once an answer to a window's first query was seen. {@link #amend} adds them to a
 * throttle's window, so the governor can spread the quota over the window. One per pipeline (one
 * principal, one user quota); thread-safe.
 */
final class UserQuotaWindow {
    static final String REMAINING = "x-ms-user-quota-remaining";
    static final String RESETS_AFTER = "x-ms-user-quota-resets-after";

    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong windowNanos = new AtomicLong();

    /** Learns from one Resource Graph answer's headers (any other answer has none and teaches nothing). */
    void observe(HttpHeaders headers) {
        long remaining = remaining(headers);
        long reset = resetsAfterNanos(headers);
        if (remaining >= 0) {
            calls.accumulateAndGet(remaining + 1, Math::max);
        }
        if (reset > 0) {
            windowNanos.accumulateAndGet(reset, Math::max);
        }
    }

    /** {@code c} with the learned window size added to a window whose reset it says but whose size it does not. */
    Classification amend(Classification c) {
        QuotaWindow w = c.window();
        long n = calls.get();
        long len = windowNanos.get();
        if (!w.resets() || w.sized() || n <= 1 || len <= 0) {
            return c;
        }
        return c.withWindow(w.withSize(n, len));
    }

    /** {@code x-ms-user-quota-remaining}, or -1 when absent or not a number. */
    static long remaining(HttpHeaders headers) {
        String v = headers.getValue(REMAINING);
        return v != null && v.trim().matches("\\d{1,9}") ? Long.parseLong(v.trim()) : -1;
    }

    /** {@code x-ms-user-quota-resets-after} ({@code hh:mm:ss}) in nanoseconds, or -1 when absent or malformed. */
    static long resetsAfterNanos(HttpHeaders headers) {
        String v = headers.getValue(RESETS_AFTER);
        if (v == null || !v.trim().matches("\\d{1,2}:\\d{2}:\\d{2}")) {
            return -1;
        }
        String[] p = v.trim().split(":");
        return TimeUnit.SECONDS.toNanos(Long.parseLong(p[0]) * 3600 + Long.parseLong(p[1]) * 60 + Long.parseLong(p[2]));
    }
}
