package io.cloudg.config;

import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code aws} block. Built through {@link Builder} ({@link #toBuilder()}; the {@code with...} methods are
 * shorthands over it), so that a new key is a component, a builder field and a line in {@link #load}, and no
 * caller spells the whole record out.
 *
 * @param endpointUrl one endpoint for every AWS service (a running {@code cloudg sim}), or null for AWS
 * @param regions the regions to map; empty means "all enabled regions" (DescribeRegions in each account)
 * @param org discover member accounts through AWS Organizations
 * @param accounts explicit account ids (instead of, or in addition to, discovery)
 * @param roleName the role assumed in member accounts, with its path if it has one ({@code path/to/Role})
 * @param profile a named profile for the management account's credentials (SSO profiles too), or null for the default chain
 * @param accessKeyId static credentials (with {@code secretAccessKey}), or null
 * @param secretAccessKey see above
 * @param sessionToken optional session token of static credentials
 * @param defaultRegion where global services and STS are called; its partition ({@code aws}, {@code aws-us-gov},
 *        {@code aws-cn}) is the one ARNs are built for
 * @param maxRetries the SDK's retries after the first attempt ({@code aws.max_retries}, 10)
 * @param retryMode the SDK's retry mode: adaptive (default), standard or legacy
 * @param collectors only these collectors (empty: all)
 * @param excludeCollectors never these collectors
 * @param cloudControlSweep run the Cloud Control sweep
 * @param cloudControlTypes the resource types the sweep lists (empty: the built-in list)
 * @param taggingSweep run the Resource Groups Tagging sweep
 * @param itemConcurrency per-item calls in flight per collector job: a fairness cap between collectors (the
 *        governor bounds the throughput)
 * @param detail {@code aws.detail}: full (default) or summary, see {@link Detail}
 * @param organizationalUnits map only the accounts in these OUs or under them (ids {@code ou-...} / {@code r-...}
 *        or paths such as {@code Root/Prod}); empty: every account
 * @param excludeOrganizationalUnits never the accounts in these OUs or under them
 * @param excludeAccounts never these accounts
 * @param excludeRegions never these regions
 * @param externalId the {@code ExternalId} of the AssumeRole into member accounts, or null
 * @param roleSessionName the session name of the AssumeRole into member accounts ({@code cloudg})
 */
public record AwsSettings(URI endpointUrl, List<String> regions, boolean org, List<String> accounts, String roleName,
                          String profile, String accessKeyId, String secretAccessKey, String sessionToken,
                          String defaultRegion, int maxRetries, String retryMode, List<String> collectors,
                          List<String> excludeCollectors, boolean cloudControlSweep, List<String> cloudControlTypes,
                          boolean taggingSweep, int itemConcurrency, Detail detail,
                          List<String> organizationalUnits, List<String> excludeOrganizationalUnits,
                          List<String> excludeAccounts, List<String> excludeRegions, String externalId,
                          String roleSessionName) {

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
    /** An IAM role name, optionally after its path: {@code OrganizationAccountAccessRole}, {@code audit/cloudg/Reader}. */
    static final Pattern ROLE = Pattern.compile("/?([\\w+=,.@-]+/)*[\\w+=,.@-]{1,64}");
    /** STS's constraints on RoleSessionName and ExternalId. */
    static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");
    static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");
    /** An OU or root id, or a path of unit names under the root ({@code Root/Prod/Web}, {@code Prod/Web}). */
    static final Pattern UNIT = Pattern.compile("(ou-[0-9a-z]{4,32}-[0-9a-z]{8,32})|(r-[0-9a-z]{4,32})|([^/]+(/[^/]+)*)");
    static final String UNIT_EXPECTATION = "an organizational unit id (ou-..., r-...) or a path such as Root/Prod";
    static final Set<String> RETRY_MODES = Set.of("adaptive", "standard", "legacy");
    static final Set<String> KEYS = Set.of("endpoint_url", "regions", "org", "accounts", "role_name", "profile",
            "access_key_id", "secret_access_key", "session_token", "default_region", "max_retries", "retry_mode",
            "collectors", "exclude_collectors", "cloudcontrol_sweep", "cloudcontrol_types", "tagging_sweep",
            "item_concurrency", "detail", "organizational_units", "exclude_organizational_units", "exclude_accounts",
            "exclude_regions", "external_id", "role_session_name");
    /** Per-item calls (one DescribeImageAttribute per AMI) in flight per collector job, by default. */
    public static final int DEFAULT_ITEM_CONCURRENCY = 8;
    public static final String DEFAULT_ROLE_SESSION_NAME = "cloudg";

    public static final AwsSettings DEFAULTS = new Builder().build();

    public AwsSettings {
        regions = List.copyOf(regions);
        accounts = List.copyOf(accounts);
        collectors = List.copyOf(collectors);
        excludeCollectors = List.copyOf(excludeCollectors);
        cloudControlTypes = List.copyOf(cloudControlTypes);
        organizationalUnits = List.copyOf(organizationalUnits);
        excludeOrganizationalUnits = List.copyOf(excludeOrganizationalUnits);
        excludeAccounts = List.copyOf(excludeAccounts);
        excludeRegions = List.copyOf(excludeRegions);
        Objects.requireNonNull(detail);
        Objects.requireNonNull(roleSessionName);
        roleName = roleName.startsWith("/") ? roleName.substring(1) : roleName;
    }

    /** Whether the map is narrowed to some organizational units, or some are left out. */
    public boolean scopedByUnits() {
        return !organizationalUnits.isEmpty() || !excludeOrganizationalUnits.isEmpty();
    }

    public static AwsSettings load(ConfigNode y) {
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
        return d.toBuilder()
                .endpointUrl(y.uri("endpoint_url", "http://127.0.0.1:4566"))
                .regions(regions)
                .org(y.bool("org", d.org()))
                .accounts(y.strings("accounts", d.accounts(), ACCOUNT, "a 12-digit account id"))
                .roleName(y.string("role_name", d.roleName(), ROLE, "an IAM role name, optionally with its path (path/to/Role)"))
                .profile(y.string("profile", null))
                .staticCredentials(ak, sk, y.string("session_token", null))
                .defaultRegion(y.string("default_region", d.defaultRegion(), REGION, "a region like us-east-1"))
                .maxRetries(y.integer("max_retries", d.maxRetries(), 0))
                .retryMode(y.oneOf("retry_mode", d.retryMode(), RETRY_MODES))
                .collectors(selectors(y, "collectors"))
                .excludeCollectors(selectors(y, "exclude_collectors"))
                .cloudControlSweep(y.bool("cloudcontrol_sweep", d.cloudControlSweep()))
                .cloudControlTypes(y.strings("cloudcontrol_types", d.cloudControlTypes(), Pattern.compile("AWS::\\w+::\\w+"),
                        "a CloudFormation type name like AWS::SNS::Subscription"))
                .taggingSweep(y.bool("tagging_sweep", d.taggingSweep()))
                .itemConcurrency(y.integer("item_concurrency", d.itemConcurrency(), 1))
                .detail(Detail.valueOf(y.oneOf("detail", d.detail().key(), Set.of("full", "summary")).toUpperCase(java.util.Locale.ROOT)))
                .organizationalUnits(y.strings("organizational_units", List.of(), UNIT, UNIT_EXPECTATION))
                .excludeOrganizationalUnits(y.strings("exclude_organizational_units", List.of(), UNIT, UNIT_EXPECTATION))
                .excludeAccounts(y.strings("exclude_accounts", List.of(), ACCOUNT, "a 12-digit account id"))
                .excludeRegions(y.strings("exclude_regions", List.of(), REGION, "a region like us-east-1"))
                .externalId(y.string("external_id", null, EXTERNAL_ID,
                        "2 to 1224 letters, digits or +=,.@:/- (STS's ExternalId)"))
                .roleSessionName(y.string("role_session_name", d.roleSessionName(), SESSION_NAME,
                        "2 to 64 letters, digits or +=,.@- (STS's RoleSessionName)"))
                .build();
    }

    /**
     * {@code aws.collectors} or {@code aws.exclude_collectors}: each a collector, a service or a glob that picks
     * one. Whether it picks one is the catalog's to say ({@code AwsCatalog.validate}, called by
     * {@code CloudGConfig} once the section is read): this package knows no provider.
     */
    private static List<String> selectors(ConfigNode y, String key) {
        return y.strings(key, List.of(), null, null);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public AwsSettings withEndpoint(URI uri) {
        return toBuilder().endpointUrl(uri).build();
    }

    public AwsSettings withRegions(List<String> r) {
        each("aws.regions entry", r, REGION, "a region like us-east-1");
        return toBuilder().regions(r).build();
    }

    public AwsSettings withOrg(boolean o) {
        return toBuilder().org(o).build();
    }

    public AwsSettings withAccounts(List<String> ids) {
        each("aws.accounts entry", ids, ACCOUNT, "a 12-digit account id");
        return toBuilder().accounts(ids).build();
    }

    public AwsSettings withCredentials(String accessKey, String secretKey) {
        return toBuilder().staticCredentials(accessKey, secretKey, null).build();
    }

    public AwsSettings withProfile(String p) {
        return toBuilder().profile(p).build();
    }

    public AwsSettings withDefaultRegion(String r) {
        each("aws.default_region", List.of(r), REGION, "a region like us-east-1");
        return toBuilder().defaultRegion(r).build();
    }

    public AwsSettings withCollectors(List<String> only, List<String> exclude) {
        return toBuilder().collectors(only).excludeCollectors(exclude).build();
    }

    public AwsSettings withSweeps(boolean cloudControl, boolean tagging) {
        return toBuilder().cloudControlSweep(cloudControl).taggingSweep(tagging).build();
    }

    public AwsSettings withMaxRetries(int n) {
        if (n < 0) {
            throw ConfigErrors.mustBe("aws.max_retries", "an integer >= 0", n);
        }
        return toBuilder().maxRetries(n).build();
    }

    public AwsSettings withRetryMode(String mode) {
        if (!RETRY_MODES.contains(mode)) {
            throw ConfigErrors.mustBe("aws.retry_mode", "one of " + String.join(", ", RETRY_MODES), mode);
        }
        return toBuilder().retryMode(mode).build();
    }

    public AwsSettings withDetail(Detail d) {
        return toBuilder().detail(Objects.requireNonNull(d)).build();
    }

    public AwsSettings withItemConcurrency(int n) {
        if (n < 1) {
            throw ConfigErrors.mustBe("aws.item_concurrency", "an integer >= 1", n);
        }
        return toBuilder().itemConcurrency(n).build();
    }

    /** {@code aws.organizational_units} and {@code aws.exclude_organizational_units}. */
    public AwsSettings withOrganizationalUnits(List<String> include, List<String> exclude) {
        each("aws.organizational_units entry", include, UNIT, UNIT_EXPECTATION);
        each("aws.exclude_organizational_units entry", exclude, UNIT, UNIT_EXPECTATION);
        return toBuilder().organizationalUnits(include).excludeOrganizationalUnits(exclude).build();
    }

    /** {@code aws.exclude_accounts} ({@code --exclude-accounts}) and {@code aws.exclude_regions} ({@code --exclude-regions}). */
    public AwsSettings withExclusions(List<String> accountIds, List<String> regionNames) {
        each("aws.exclude_accounts entry", accountIds, ACCOUNT, "a 12-digit account id");
        each("aws.exclude_regions entry", regionNames, REGION, "a region like us-east-1");
        return toBuilder().excludeAccounts(accountIds).excludeRegions(regionNames).build();
    }

    /** The role assumed in member accounts: {@code aws.role_name}, {@code aws.external_id}, {@code aws.role_session_name}. */
    public AwsSettings withMemberRole(String role, String external, String sessionName) {
        each("aws.role_name", List.of(role), ROLE, "an IAM role name, optionally with its path (path/to/Role)");
        if (external != null) {
            each("aws.external_id", List.of(external), EXTERNAL_ID, "2 to 1224 letters, digits or +=,.@:/- (STS's ExternalId)");
        }
        each("aws.role_session_name", List.of(sessionName), SESSION_NAME, "2 to 64 letters, digits or +=,.@- (STS's RoleSessionName)");
        return toBuilder().roleName(role).externalId(external).roleSessionName(sessionName).build();
    }

    private static void each(String key, List<String> values, Pattern p, String expectation) {
        for (String s : values) {
            if (s == null || !p.matcher(s).matches()) {
                throw ConfigErrors.mustBe(key, expectation, s);
            }
        }
    }

    /** Redacted for logs. */
    @Override
    public String toString() {
        return "AwsSettings{endpoint=" + endpointUrl + ", regions=" + (regions.isEmpty() ? "all" : regions) + ", org=" + org
                + ", accounts=" + accounts + ", role=" + roleName + (externalId == null ? "" : " (external id set)")
                + ", credentials=" + (accessKeyId == null ? profile == null ? "default chain" : "profile " + profile : "static")
                + ", max_retries=" + maxRetries + ", retry_mode=" + retryMode + ", item_concurrency=" + itemConcurrency
                + ", detail=" + detail.key()
                + (organizationalUnits.isEmpty() ? "" : ", organizational_units=" + organizationalUnits)
                + (excludeOrganizationalUnits.isEmpty() ? "" : ", exclude_organizational_units=" + excludeOrganizationalUnits)
                + (excludeAccounts.isEmpty() ? "" : ", exclude_accounts=" + excludeAccounts)
                + (excludeRegions.isEmpty() ? "" : ", exclude_regions=" + excludeRegions) + "}";
    }

    /** Every setting, starting from the defaults (or from a copy); values are checked where they are read. */
    public static final class Builder {
        private URI endpointUrl;
        private List<String> regions = List.of();
        private boolean org;
        private List<String> accounts = List.of();
        private String roleName = "OrganizationAccountAccessRole";
        private String profile;
        private String accessKeyId;
        private String secretAccessKey;
        private String sessionToken;
        private String defaultRegion = "us-east-1";
        private int maxRetries = 10;
        private String retryMode = "adaptive";
        private List<String> collectors = List.of();
        private List<String> excludeCollectors = List.of();
        private boolean cloudControlSweep = true;
        private List<String> cloudControlTypes = List.of();
        private boolean taggingSweep = true;
        private int itemConcurrency = DEFAULT_ITEM_CONCURRENCY;
        private Detail detail = Detail.FULL;
        private List<String> organizationalUnits = List.of();
        private List<String> excludeOrganizationalUnits = List.of();
        private List<String> excludeAccounts = List.of();
        private List<String> excludeRegions = List.of();
        private String externalId;
        private String roleSessionName = DEFAULT_ROLE_SESSION_NAME;

        Builder() {
        }

        private Builder(AwsSettings s) {
            endpointUrl = s.endpointUrl;
            regions = s.regions;
            org = s.org;
            accounts = s.accounts;
            roleName = s.roleName;
            profile = s.profile;
            accessKeyId = s.accessKeyId;
            secretAccessKey = s.secretAccessKey;
            sessionToken = s.sessionToken;
            defaultRegion = s.defaultRegion;
            maxRetries = s.maxRetries;
            retryMode = s.retryMode;
            collectors = s.collectors;
            excludeCollectors = s.excludeCollectors;
            cloudControlSweep = s.cloudControlSweep;
            cloudControlTypes = s.cloudControlTypes;
            taggingSweep = s.taggingSweep;
            itemConcurrency = s.itemConcurrency;
            detail = s.detail;
            organizationalUnits = s.organizationalUnits;
            excludeOrganizationalUnits = s.excludeOrganizationalUnits;
            excludeAccounts = s.excludeAccounts;
            excludeRegions = s.excludeRegions;
            externalId = s.externalId;
            roleSessionName = s.roleSessionName;
        }

        public Builder endpointUrl(URI v) { endpointUrl = v; return this; }
        public Builder regions(List<String> v) { regions = v; return this; }
        public Builder org(boolean v) { org = v; return this; }
        public Builder accounts(List<String> v) { accounts = v; return this; }
        public Builder roleName(String v) { roleName = v; return this; }
        public Builder profile(String v) { profile = v; return this; }

        public Builder staticCredentials(String accessKey, String secretKey, String token) {
            accessKeyId = accessKey;
            secretAccessKey = secretKey;
            sessionToken = token;
            return this;
        }

        public Builder defaultRegion(String v) { defaultRegion = v; return this; }
        public Builder maxRetries(int v) { maxRetries = v; return this; }
        public Builder retryMode(String v) { retryMode = v; return this; }
        public Builder collectors(List<String> v) { collectors = v; return this; }
        public Builder excludeCollectors(List<String> v) { excludeCollectors = v; return this; }
        public Builder cloudControlSweep(boolean v) { cloudControlSweep = v; return this; }
        public Builder cloudControlTypes(List<String> v) { cloudControlTypes = v; return this; }
        public Builder taggingSweep(boolean v) { taggingSweep = v; return this; }
        public Builder itemConcurrency(int v) { itemConcurrency = v; return this; }
        public Builder detail(Detail v) { detail = v; return this; }
        public Builder organizationalUnits(List<String> v) { organizationalUnits = v; return this; }
        public Builder excludeOrganizationalUnits(List<String> v) { excludeOrganizationalUnits = v; return this; }
        public Builder excludeAccounts(List<String> v) { excludeAccounts = v; return this; }
        public Builder excludeRegions(List<String> v) { excludeRegions = v; return this; }
        public Builder externalId(String v) { externalId = v; return this; }
        public Builder roleSessionName(String v) { roleSessionName = v; return this; }

        public AwsSettings build() {
            return new AwsSettings(endpointUrl, regions, org, accounts, roleName, profile, accessKeyId, secretAccessKey,
                    sessionToken, defaultRegion, maxRetries, retryMode, collectors, excludeCollectors, cloudControlSweep,
                    cloudControlTypes, taggingSweep, itemConcurrency, detail, organizationalUnits,
                    excludeOrganizationalUnits, excludeAccounts, excludeRegions, externalId, roleSessionName);
        }
    }
}
