package io.cloudg.gcp;

import io.cloudg.resilience.CallOptions;
import io.cloudg.resilience.spi.Scope;
import java.util.List;
import java.util.Map;

/**
 * Which Cloud Asset quotas a call is charged to, and the governor scopes that pace them. Cloud Asset charges
 * every call to the <em>consumer</em> project (the {@code x-goog-user-project} the call names, else the project
 * of the caller's credentials: ListAssets 100 a minute, SearchAllResources 400) and to the organization the
 * listed resources belong to (800 and 1,500 a minute), never to the project listed. So:
 *
 * <ul>
 *   <li>every call names the consumer project ({@link #headers()}), and every listing charged to it shares
 *       one leaf per method, {@code gcp/<consumer>/cloudasset/<Method>} ({@link #scope}), whatever project
 *       it lists;</li>
 *   <li>with {@code gcp.organization}, every call is also charged to the organization's leaf,
 *       {@code gcp/organizations-N/cloudasset/<Method>PerOrganization} ({@link #organizationQuota}); a
 *       RESOURCE_EXHAUSTED whose {@code quota_unit} is per {@code {organization}} slows that leaf, not the
 *       consumer's.</li>
 * </ul>
 *
 * The consumer project is {@code gcp.consumer_project}, else the credentials' quota project or project (a
 * service-account key's {@code project_id}). When neither says (application default credentials of a user
 * without a quota project, a plaintext emulator endpoint without {@code gcp.consumer_project}), calls name
 * none: Google charges the credentials' own project, the same one for every call, and the calls share the leaf
 * {@code gcp/credentials-project/cloudasset/<Method>}. cloudg does not pick a project to charge by itself (the
 * first listed or discovered one): naming a consumer needs {@code serviceusage.services.use} on it, and moves
 * the charge to a project the user did not choose. Immutable.
 */
final class CloudAssetQuotas {
    static final String HEADER = "x-goog-user-project";
    static final String ORGANIZATION = "organization";
    static final String PER_ORGANIZATION = "PerOrganization";
    /** The leaf account of calls that name no consumer project (Google charges the credentials' own). */
    static final String CREDENTIALS_PROJECT = "credentials-project";

    private final String consumer;
    private final String organization;
    private final Map<String, List<String>> headers;

    /**
     * @param consumer the consumer project, or null when the credentials' own is charged
     * @param organization the organization number ({@code gcp.organization}), or null
     * @param headerPerCall whether calls must carry the header themselves (a channel cloudg built, where gax's
     *        quota project setting is not sent); false when the client's settings send it
     */
    CloudAssetQuotas(String consumer, String organization, boolean headerPerCall) {
        this.consumer = consumer;
        this.organization = organization;
        this.headers = consumer == null || !headerPerCall ? Map.of() : Map.of(HEADER, List.of(consumer));
    }

    /** The consumer project, or null when calls name none. */
    String consumer() {
        return consumer;
    }

    /** The leaf that paces {@code method}: the consumer project's. */
    Scope scope(String method) {
        return Scope.of("gcp", consumer == null ? CREDENTIALS_PROJECT : consumer, null, "cloudasset", method);
    }

    /** The organization's quota of {@code method} every call is also charged to, or null without an organization. */
    CallOptions.ChargedQuota organizationQuota(String method) {
        return organization == null ? null
                : new CallOptions.ChargedQuota(GcpParent.organization(organization).scope(method + PER_ORGANIZATION),
                        ORGANIZATION);
    }

    /** The metadata every call carries: the consumer project, unless none is named or the client sends it. */
    Map<String, List<String>> headers() {
        return headers;
    }
}
