package io.cloudg.gcp;

import io.cloudg.resilience.spi.Scope;

/**
 * Where a Cloud Asset listing runs: one project or the organization.
 *
 * @param name the API's parent or scope, {@code projects/ID} or {@code organizations/N}
 * @param account the assets' account, the project id or {@code organizations/N}
 * @param scopeAccount the governor scope's account, the project id or {@code organizations-N} (a scope
 *        part cannot hold a slash)
 */
public record GcpParent(String name, String account, String scopeAccount) {
    public static GcpParent project(String id) {
        return new GcpParent("projects/" + id, id, id);
    }

    public static GcpParent organization(String number) {
        return new GcpParent("organizations/" + number, "organizations/" + number, "organizations-" + number);
    }

    /** The parent named by a request's {@code parent} / {@code scope} field. */
    static GcpParent of(String name) {
        if (name.startsWith("organizations/")) {
            return organization(name.substring("organizations/".length()));
        }
        return project(name.startsWith("projects/") ? name.substring("projects/".length()) : name);
    }

    /** {@code gcp/<project or organizations-N>/cloudasset/<method>}. */
    public Scope scope(String method) {
        return Scope.of("gcp", scopeAccount, null, "cloudasset", method);
    }
}
