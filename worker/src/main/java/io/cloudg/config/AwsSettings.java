package io.cloudg.config;

import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code aws} block.
 *
 * @param endpointUrl one endpoint for every AWS service (a running {@code cloudg sim}), or null for AWS
 * @param regions the regions to map; empty means "all enabled regions" (DescribeRegions)
 * @param org discover member accounts through AWS Organizations
 * @param accounts explicit account ids (instead of, or in addition to, discovery)
 * @param roleName the role assumed in member accounts
 * @param profile a named profile for the management account's credentials, or null for the default chain
 * @param accessKeyId static credentials (with {@code secretAccessKey}), or null
 * @param secretAccessKey see above
 * @param sessionToken optional session token of static credentials
 * @param defaultRegion where global services and STS are called
 * @param maxRetries the SDK's retries after the first attempt ({@code aws.max_retries}, 10)
 * @param retryMode the SDK's retry mode: adaptive (default), standard or legacy
 * @param collectors only these collectors (empty: all)
 * @param excludeCollectors never these collectors
 * @param cloudControlSweep run the Cloud Control sweep
 * @param cloudControlTypes the resource types the sweep lists (empty: the built-in list)
 * @param taggingSweep run the Resource Groups Tagging sweep
 * @param itemConcurrency per-item calls in flight per collector job
 * @param detail {@code aws.detail}: full (default) or summary, see {@link Detail}
 */
public record AwsSettings(URI endpointUrl, List<String> regions, boolean org, List<String> accounts, String roleName,
                          String profile, String accessKeyId, String secretAccessKey, String sessionToken,
                          String defaultRegion, int maxRetries, String retryMode, List<String> collectors,
                          List<String> excludeCollectors, boolean cloudControlSweep, List<String> cloudControlTypes,
                          boolean taggingSweep, int itemConcurrency, Detail detail) {

    /**
     * How much of each resource a collector keeps ({@code aws.detail}): {@code full} (the default) keeps the
     * resource's configuration as the provider returned it (the listed item's members and every per-item
     * answer); {@code summary} keeps identity, tags and the derived attributes the scanners read, and skips the
     * per-item calls that would give nothing else.
     */
    public enum Detail {
        FULL, SUMMARY;

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-\\d+");
    static final Pattern ACCOUNT = Pattern.compile("\\d{12}");
    static final Set<String> RETRY_MODES = Set.of("adaptive", "standard", "legacy");
    static final Set<String> KEYS = Set.of("endpoint_url", "regions", "org", "accounts", "role_name", "profile",
            "access_key_id", "secret_access_key", "session_token", "default_region", "max_retries", "retry_mode",
            "collectors", "exclude_collectors", "cloudcontrol_sweep", "cloudcontrol_types", "tagging_sweep",
            "item_concurrency", "detail");
    /** Per-item calls (one DescribeImageAttribute per AMI) in flight per collector job, by default. */
    public static final int DEFAULT_ITEM_CONCURRENCY = 8;

    public static final AwsSettings DEFAULTS = new AwsSettings(null, List.of(), false, List.of(),
            "OrganizationAccountAccessRole", null, null, null, null, "us-east-1", 10, "adaptive", List.of(), List.of(),
            true, List.of(), true, DEFAULT_ITEM_CONCURRENCY, Detail.FULL);

    public AwsSettings {
        regions = List.copyOf(regions);
        accounts = List.copyOf(accounts);
        collectors = List.copyOf(collectors);
        excludeCollectors = List.copyOf(excludeCollectors);
        cloudControlTypes = List.copyOf(cloudControlTypes);
    }

    static AwsSettings load(ConfigNode y) {
        y.warnUnknown(KEYS);
        AwsSettings d = DEFAULTS;
        List<String> regions = d.regions();
        if (y.has("regions")) {
            List<String> r = y.strings("regions", List.of(), null, null);
            regions = r.size() == 1 && r.get(0).equals("all") ? List.of() : y.strings("regions", List.of(), REGION,
                    "a region like us-east-1 (or the single word all)");
        }
        String ak = y.string("access_key_id", null);
        String sk = y.string("secret_access_key", null);
        if ((ak == null) != (sk == null)) {
            throw ConfigErrors.mustBe(ak == null ? "aws.access_key_id" : "aws.secret_access_key",
                    "set together with " + (ak == null ? "aws.secret_access_key" : "aws.access_key_id"), "(unset)");
        }
        return new AwsSettings(y.uri("endpoint_url", "http://127.0.0.1:4566"), regions, y.bool("org", d.org()),
                y.strings("accounts", d.accounts(), ACCOUNT, "a 12-digit account id"),
                y.string("role_name", d.roleName()), y.string("profile", null), ak, sk, y.string("session_token", null),
                y.string("default_region", d.defaultRegion(), REGION, "a region like us-east-1"),
                y.integer("max_retries", d.maxRetries(), 0), y.oneOf("retry_mode", d.retryMode(), RETRY_MODES),
                selectors(y, "collectors"), selectors(y, "exclude_collectors"),
                y.bool("cloudcontrol_sweep", d.cloudControlSweep()),
                y.strings("cloudcontrol_types", d.cloudControlTypes(), Pattern.compile("AWS::\\w+::\\w+"),
                        "a CloudFormation type name like AWS::SNS::Subscription"),
                y.bool("tagging_sweep", d.taggingSweep()), y.integer("item_concurrency", d.itemConcurrency(), 1),
                Detail.valueOf(y.oneOf("detail", d.detail().key(), Set.of("full", "summary")).toUpperCase(java.util.Locale.ROOT)));
    }

    /** {@code aws.collectors} or {@code aws.exclude_collectors}: each a collector, a service or a glob that picks one. */
    private static List<String> selectors(ConfigNode y, String key) {
        List<String> l = y.strings(key, List.of(), null, null);
        l.forEach(s -> io.cloudg.aws.AwsCatalog.validate("aws." + key, s));
        return l;
    }

    public AwsSettings withEndpoint(URI uri) {
        return new AwsSettings(uri, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey, sessionToken,
                defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControlSweep, cloudControlTypes,
                taggingSweep, itemConcurrency, detail);
    }

    public AwsSettings withRegions(List<String> r) {
        for (String s : r) {
            if (!REGION.matcher(s).matches()) {
                throw ConfigErrors.mustBe("aws.regions entry", "a region like us-east-1", s);
            }
        }
        return new AwsSettings(endpointUrl, r, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControlSweep,
                cloudControlTypes, taggingSweep, itemConcurrency, detail);
    }

    public AwsSettings withOrg(boolean o) {
        return new AwsSettings(endpointUrl, regions, o, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControlSweep,
                cloudControlTypes, taggingSweep, itemConcurrency, detail);
    }

    public AwsSettings withCredentials(String accessKey, String secretKey) {
        return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKey, secretKey, null,
                defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControlSweep, cloudControlTypes,
                taggingSweep, itemConcurrency, detail);
    }

    public AwsSettings withCollectors(List<String> only, List<String> exclude) {
        return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, maxRetries, retryMode, only, exclude, cloudControlSweep, cloudControlTypes,
                taggingSweep, itemConcurrency, detail);
    }

    public AwsSettings withSweeps(boolean cloudControl, boolean tagging) {
        return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControl,
                cloudControlTypes, tagging, itemConcurrency, detail);
    }

    public AwsSettings withMaxRetries(int n) {
        if (n < 0) {
            throw ConfigErrors.mustBe("aws.max_retries", "an integer >= 0", n);
        }
        return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, n, retryMode, collectors, excludeCollectors, cloudControlSweep,
                cloudControlTypes, taggingSweep, itemConcurrency, detail);
    }

    public AwsSettings withRetryMode(String mode) {
        if (!RETRY_MODES.contains(mode)) {
            throw ConfigErrors.mustBe("aws.retry_mode", "one of " + String.join(", ", RETRY_MODES), mode);
        }
        return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, maxRetries, mode, collectors, excludeCollectors, cloudControlSweep,
                cloudControlTypes, taggingSweep, itemConcurrency, detail);
    }

    public AwsSettings withDetail(Detail d) {
        return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControlSweep,
                cloudControlTypes, taggingSweep, itemConcurrency, java.util.Objects.requireNonNull(d));
    }

    public AwsSettings withItemConcurrency(int n) {
        if (n < 1) {
            throw ConfigErrors.mustBe("aws.item_concurrency", "an integer >= 1", n);
        }
        return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                sessionToken, defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControlSweep,
                cloudControlTypes, taggingSweep, n, detail);
    }

    /** Redacted for logs. */
    @Override
    public String toString() {
        return "AwsSettings{endpoint=" + endpointUrl + ", regions=" + (regions.isEmpty() ? "all" : regions) + ", org=" + org
                + ", accounts=" + accounts + ", role=" + roleName + ", credentials=" + (accessKeyId == null ? "default chain" : "static")
                + ", max_retries=" + maxRetries + ", retry_mode=" + retryMode + ", item_concurrency=" + itemConcurrency + ", detail=" + detail.key() + "}";
    }
}
