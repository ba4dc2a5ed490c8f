package io.cloudg.resilience;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.TimeUnit;

/**
 * Reads a {@code Retry-After} value: delay-seconds ({@code "5"}, also {@code "1.5"}) or an HTTP date
 * ({@code "Wed, 21 Oct 2026 07:28:00 GMT"}). The result is capped at {@link #MAX_NANOS} (300 s). A
 * malformed, empty or negative value yields {@link #NONE}: a bad header is ignored, never an exception.
 */
public final class RetryAfter {
    /** No usable hint. */
    public static final long NONE = -1L;
    /** The longest pause a Retry-After hint can impose. */
    public static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(300);

    private RetryAfter() {
    }

    /**
     * @param raw the header value, may be null
     * @param nowEpochMillis the current wall-clock time, used for HTTP dates
     * @return the delay in nanoseconds, between 0 and {@link #MAX_NANOS}, or {@link #NONE}
     */
    public static long parseNanos(String raw, long nowEpochMillis) {
        if (raw == null) {
            return NONE;
        }
        String v = raw.trim();
        if (v.isEmpty() || v.length() > 64) {
            return NONE;
        }
        if (isDecimal(v)) {
            double seconds;
            try {
                seconds = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                return NONE;
            }
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                return NONE;
            }
            return Math.min(MAX_NANOS, (long) (seconds * 1e9));
        }
        try {
            long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            long delta = Math.max(0, at - nowEpochMillis);
            return Math.min(MAX_NANOS, TimeUnit.MILLISECONDS.toNanos(delta));
        } catch (DateTimeParseException | ArithmeticException e) {
            return NONE;
        }
    }

    private static boolean isDecimal(String v) {
        boolean dot = false;
        boolean digit = false;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c == '.' && !dot) {
                dot = true;
            } else {
                return false;
            }
        }
        return digit;
    }
}
