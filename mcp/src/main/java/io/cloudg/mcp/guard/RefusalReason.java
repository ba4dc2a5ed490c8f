package io.cloudg.mcp.guard;

import java.util.Locale;

/** Why the guard refused a live operation: the {@code reason} of a -31029 tool error. */
public enum RefusalReason {
    /** A scope is at {@code live_max_concurrent}, or the server at {@code live_max_concurrent_total}. */
    BUSY,
    /** A scope ran an operation less than its {@code live_cooldown_seconds} ago. */
    COOLDOWN,
    /** The caller started {@code live_caller_max_operations} within {@code live_caller_window_seconds}. */
    QUOTA;

    /** {@code busy}, {@code cooldown} or {@code quota}, as the payload spells it. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RefusalReason fromWire(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }
}
