package io.cloudg.resilience.core;

/**
 * The per-provider retry budget, as pure functions over a balance kept in thousandths of a token (so
 * refunds of 0.1 add up exactly, in Java and in Lua alike).
 *
 * <p>A provider starts with {@code retry_budget} tokens. The first {@link #FREE_RETRIES} retries of every
 * call are free; each later retry costs one token and is refused when fewer than one remain. Every
 * successful call refunds {@link #REFUND_MILLIS} (0.1 token), never above the initial size. When a whole
 * provider struggles, successes stop refilling it, the budget runs dry and cloudg stops multiplying load.
 */
public final class RetryBudgets {
    public static final int FREE_RETRIES = 2;
    public static final long TOKEN_MILLIS = 1000;
    public static final long REFUND_MILLIS = 100;

    private RetryBudgets() {
    }

    /** A full budget of {@code size} tokens, in thousandths. */
    public static long full(int size) {
        return size * TOKEN_MILLIS;
    }

    /** Whether retry number {@code retry} (1 = the first retry) of a call needs a token. */
    public static boolean costs(int retry) {
        return retry > FREE_RETRIES;
    }

    /** The balance after taking one token, or -1 if less than one token is left. */
    public static long take(long balanceMillis) {
        return balanceMillis >= TOKEN_MILLIS ? balanceMillis - TOKEN_MILLIS : -1;
    }

    /** The balance after one success's refund. */
    public static long refund(long balanceMillis, int size) {
        return Math.min(full(size), balanceMillis + REFUND_MILLIS);
    }
}
