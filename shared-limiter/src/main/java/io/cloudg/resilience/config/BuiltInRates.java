package io.cloudg.resilience.config;

import java.util.Map;

/**
 * The built-in rate table: leaf rates at or just below each provider's documented limits. User
 * overrides merge into it key by key (see {@link ProviderLimits}).
 *
 * <p>Service keys are the AWS service names of the SDK's signing name ({@code ec2}, {@code iam}...), the
 * Azure resource-provider namespace without {@code Microsoft.} in lower case ({@code network},
 * {@code storage}, {@code resourcegraph}), and the GCP API name ({@code cloudasset}). An
 * {@code <service>.<Operation>} key gives that operation a bucket of its own.
 */
public final class BuiltInRates {
    public static final String AWS = "aws";
    public static final String AZURE = "azure";
    public static final String GCP = "gcp";

    private BuiltInRates() {
    }

    /** The built-in defaults of one provider, or null for a provider cloudg does not know. */
    static Defaults of(String provider) {
        switch (provider) {
            case AWS: return AWS_DEFAULTS;
            case AZURE: return AZURE_DEFAULTS;
            case GCP: return GCP_DEFAULTS;
            default: return null;
        }
    }

    /** The built-in numbers of one provider. */
    record Defaults(ServiceLimit defaultLeaf, Map<String, ServiceLimit> services, BucketLimit account,
                    double minRps, int maxConcurrency) {
    }

    /** Every provider shares these. */
    static final int BREAKER_THRESHOLD = 5;
    static final double BREAKER_COOLDOWN_SECONDS = 60;
    static final double BREAKER_MAX_COOLDOWN_SECONDS = 600;
    static final double BREAKER_PROBE_TIMEOUT_SECONDS = 60;
    static final double SLOT_LEASE_SECONDS = 120;
    static final int RETRY_BUDGET = 500;
    static final int MAX_RETRIES = 8;
    static final double MAX_BACKOFF_SECONDS = 20;
    static final double DEADLINE_SECONDS = 900;

    private static final Defaults AWS_DEFAULTS = new Defaults(
            ServiceLimit.of(20, 40),
            Map.ofEntries(
                    Map.entry("ec2", ServiceLimit.of(20, 100)),
                    Map.entry("sts", ServiceLimit.of(50, 100)),
                    Map.entry("lambda", ServiceLimit.of(15, 15)),
                    Map.entry("iam", ServiceLimit.of(10, 40)),
                    Map.entry("route53", ServiceLimit.of(5, 5)),
                    Map.entry("resourcegroupstaggingapi", ServiceLimit.of(5, 10)),
                    Map.entry("organizations", ServiceLimit.of(5, 10)),
                    Map.entry("cloudformation", ServiceLimit.of(5, 10)),
                    Map.entry("cloudcontrol", ServiceLimit.of(5, 10)),
                    Map.entry("controltower", ServiceLimit.of(2, 5))),
            null, 0.2, 128);

    private static final Defaults AZURE_DEFAULTS = new Defaults(
            ServiceLimit.of(15, 100),
            Map.of(
                    "network", ServiceLimit.of(30, 200),
                    "storage", ServiceLimit.of(0.33, 20),
                    // 15 queries per 5-second window per user, spread over the window: a bucket that starts full
                    // would send its burst and then its rate in the first window (29 queries)
                    "resourcegraph", ServiceLimit.of(2.85, 1)),
            new BucketLimit(20, 200), 0.1, 16);

    /**
     * Cloud Asset's per-minute quotas: per consumer project (the leaf of every call, keyed by that project)
     * ListAssets 100 and SearchAllResources 400 a minute; per organization (a quota every call is also charged
     * to, {@code <Method>PerOrganization}) 800 and 1,500. Each leaf's burst (less its headroom) plus a
     * minute of its rate stays within one minute's quota: 9.25 + 90 of 100, 17 + 360 of 400, 13.5 + 780 of
     * 800, 28 + 1,440 of 1,500.
     */
    private static final Defaults GCP_DEFAULTS = new Defaults(
            ServiceLimit.of(10, 20),
            Map.of(
                    "cloudasset.ListAssets", ServiceLimit.of(1.5, 10),
                    "cloudasset.SearchAllResources", ServiceLimit.of(6, 20),
                    "cloudasset.SearchAllIamPolicies", ServiceLimit.of(6, 20),
                    "cloudasset.ListAssetsPerOrganization", ServiceLimit.of(13, 20),
                    "cloudasset.SearchAllResourcesPerOrganization", ServiceLimit.of(24, 40)),
            null, 0.05, 16);
}
