package io.cloudg.mcp.guard;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A caller of the MCP server: the name quotas and logs use, and its roles.
 *
 * @param name the configured principal name
 * @param roles its roles, never empty
 */
public record Principal(String name, Set<Role> roles) {
    public Principal {
        if (roles.isEmpty()) {
            throw new IllegalArgumentException("principal " + name + " has no role");
        }
        roles = Set.copyOf(EnumSet.copyOf(roles));
    }

    public static Principal of(String name, Role... roles) {
        return new Principal(name, Set.of(roles));
    }

    /** Whether any role of this principal may force (skip a cooldown). */
    public boolean mayForce() {
        return roles.stream().anyMatch(Role::mayForce);
    }

    /** The roles as the payloads spell them, sorted. */
    public List<String> roleNames() {
        return roles.stream().sorted().map(Role::wire).toList();
    }
}
