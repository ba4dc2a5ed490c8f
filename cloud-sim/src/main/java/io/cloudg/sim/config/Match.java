package io.cloudg.sim.config;

import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.Provider;

/**
 * Selects calls by any of provider, account, region, service and operation; a null part matches
 * anything. Used by fault rules and noisy neighbours.
 */
public record Match(Provider provider, String account, String region, String service, String operation) {

    public static final Match ANY = new Match(null, null, null, null, null);

    public boolean matches(CallScope s) {
        return (provider == null || provider == s.provider())
            && (account == null || account.equals(s.account()))
            && (region == null || region.equals(s.region()))
            && (service == null || service.equals(s.service()))
            && (operation == null || operation.equals(s.operation()));
    }

    static Match read(SpecNode n) {
        n.onlyKeys("provider", "account", "region", "service", "operation");
        Provider p = null;
        String ps = n.get("provider").string(null);
        if (ps != null) {
            p = Provider.parse(ps);
            if (p == null) {
                throw n.get("provider").error("expected one of aws, azure, gcp, got \"" + ps + "\"");
            }
        }
        return new Match(p, n.get("account").string(null), n.get("region").string(null),
            n.get("service").string(null), n.get("operation").string(null));
    }
}
