package io.cloudg.mcp.guard;

import java.util.Locale;

/**
 * What a principal may do. Which roles may run the live tools is configured ({@code mcp.live_roles}, default
 * admin and operator; checked by the server before the guard); only admin and operator may force.
 */
public enum Role {
    ADMIN(true),
    OPERATOR(true),
    VIEWER(false);

    private final boolean mayForce;

    Role(boolean mayForce) {
        this.mayForce = mayForce;
    }

    /** Whether this role may pass {@code force=true} (skip a cooldown). */
    public boolean mayForce() {
        return mayForce;
    }

    /** {@code admin}, {@code operator}, {@code viewer}. */
    public static Role parse(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
