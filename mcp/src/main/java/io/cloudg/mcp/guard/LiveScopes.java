package io.cloudg.mcp.guard;

import io.cloudg.CloudGConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The scopes of a live operation, from the configuration (never from what a collection discovers, so that
 * a refusal can be decided before any cloud API is called):
 * <ul>
 *   <li>AWS: {@code aws/<account>} per configured account ({@code aws.accounts}), else
 *       {@code aws/profile:<name>} ({@code aws.profile}), else {@code aws};</li>
 *   <li>Azure: {@code azure/<subscription>} per configured subscription, else {@code azure/tenant:<id>},
 *       else {@code azure};</li>
 *   <li>GCP: {@code gcp/<project>} per configured project, else {@code gcp/org:<id>}, else {@code gcp}.</li>
 * </ul>
 * An operation on one account uses that account's scope when the account is configured; when the
 * configuration lists no accounts, the provider's scope (the whole estate reachable with those credentials)
 * is the narrowest that is certain to overlap every other operation on the same estate.
 */
public final class LiveScopes {
    private LiveScopes() {
    }

    /** Every scope of {@code providers}, sorted. */
    public static List<LiveScope> of(CloudGConfig config, Collection<String> providers) {
        TreeSet<LiveScope> out = new TreeSet<>();
        for (String p : providers) {
            out.addAll(provider(config, p));
        }
        return List.copyOf(out);
    }

    /** The scopes configured for one provider. */
    public static List<LiveScope> provider(CloudGConfig config, String provider) {
        List<LiveScope> out = new ArrayList<>();
        switch (provider) {
            case "aws" -> {
                config.aws().accounts().forEach(a -> out.add(new LiveScope("aws", a)));
                if (out.isEmpty()) {
                    out.add(new LiveScope("aws", config.aws().profile() == null ? null : "profile:" + config.aws().profile()));
                }
            }
            case "azure" -> {
                config.azure().subscriptions().forEach(s -> out.add(new LiveScope("azure", s)));
                if (out.isEmpty()) {
                    out.add(new LiveScope("azure", config.azure().tenantId() == null ? null : "tenant:" + config.azure().tenantId()));
                }
            }
            case "gcp" -> {
                config.gcp().projects().forEach(p -> out.add(new LiveScope("gcp", p)));
                if (out.isEmpty()) {
                    out.add(new LiveScope("gcp", config.gcp().organization() == null ? null : "org:" + config.gcp().organization()));
                }
            }
            default -> throw new IllegalArgumentException("unknown provider " + provider);
        }
        return out;
    }

    /**
     * The scopes of an operation on one account (subscription, project): that account's scope if it is
     * configured; the provider's scopes if the configuration lists none (or discovers more through an
     * organization); empty if the configuration lists accounts, discovers none, and this is not one of them.
     */
    public static Optional<List<LiveScope>> account(CloudGConfig config, String provider, String account) {
        List<LiveScope> configured = provider(config, provider);
        LiveScope exact = new LiveScope(provider, account);
        if (configured.contains(exact)) {
            return Optional.of(List.of(exact));
        }
        boolean listsAccounts = configured.stream().noneMatch(s -> s.id() == null || s.id().contains(":"));
        boolean discovers = switch (provider) {
            case "aws" -> config.aws().org();
            case "gcp" -> config.gcp().organization() != null;
            default -> false;
        };
        if (listsAccounts && !discovers) {
            return Optional.empty();
        }
        return Optional.of(configured);
    }
}
