package io.cloudg.sim.estate;

import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The AWS organization. Accounts are held; resources are generated per account x region (and per account
 * for its global part) when first listed, and cached in a bounded {@link ShardCache}, so an organization of
 * thousands of accounts in every region starts at once and keeps a flat heap. Listings read the estate as
 * it stands on the {@link Timeline} (churned resources appear and disappear).
 */
public final class AwsEstate {
    /** Region name used for global services. */
    public static final String GLOBAL = "global";
    /** Shards kept generated at once. */
    static final int CACHED_SHARDS = 4096;
    private static final Pattern BUCKET = Pattern.compile("sim-(\\d{12})-bucket-.*");

    private final String organizationId;
    private final AwsAccount management;
    private final List<AwsAccount> accounts;
    private final Map<String, AwsAccount> accountsById;
    private final List<String> regions;
    private final String roleName;
    private final Map<String, AwsResource> organizationAccounts;
    private final AwsGenerator generator;
    private final ShardCache cache = new ShardCache(CACHED_SHARDS);
    private final Timeline timeline;
    private final AwsSecurity security;

    private final List<AwsOrgUnit> units;
    private final java.util.Set<String> optIn;
    private final Map<String, AwsOrgUnit> unitsById;

    AwsEstate(String organizationId, List<AwsAccount> accounts, List<String> regions, String roleName,
              AwsGenerator generator, Timeline timeline, AwsSecurity.Plan security, List<AwsOrgUnit> units) {
        this.units = List.copyOf(units);
        Map<String, AwsOrgUnit> u = new LinkedHashMap<>();
        units.forEach(x -> u.put(x.id(), x));
        this.unitsById = Collections.unmodifiableMap(u);
        this.organizationId = organizationId;
        this.accounts = List.copyOf(accounts);
        this.management = accounts.stream().filter(AwsAccount::management).findFirst().orElseThrow();
        Map<String, AwsAccount> m = new LinkedHashMap<>();
        Map<String, AwsResource> orgAccounts = new LinkedHashMap<>();
        for (AwsAccount a : accounts) {
            m.put(a.id(), a);
            orgAccounts.put(a.id(), new AwsResource(AwsType.ORGANIZATIONS_ACCOUNT, a.id(), GLOBAL, a.id(), a.name(),
                "arn:aws:organizations::" + management.id() + ":account/" + organizationId + "/" + a.id(), a.joined(),
                null, null, null, orgAccounts.size(), Lifetime.ALWAYS, null));
        }
        this.accountsById = Collections.unmodifiableMap(m);
        this.organizationAccounts = Collections.unmodifiableMap(orgAccounts);
        this.regions = List.copyOf(regions);
        this.optIn = regions.stream().filter(r -> accounts.stream().anyMatch(a -> !a.regions().contains(r)))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.roleName = roleName;
        this.generator = generator;
        this.timeline = timeline;
        this.security = new AwsSecurity(this, security);
    }

    public String organizationId() {
        return organizationId;
    }

    public AwsAccount management() {
        return management;
    }

    public List<AwsAccount> accounts() {
        return accounts;
    }

    public AwsAccount account(String id) {
        return accountsById.get(id);
    }

    /** Every region of the organization: those enabled in every account, then the opt-in regions. */
    public List<String> regions() {
        return regions;
    }

    /** The organization's root. */
    public AwsOrgUnit root() {
        return units.get(0);
    }

    /** The root, then every organizational unit, parents before children. */
    public List<AwsOrgUnit> units() {
        return units;
    }

    /** The root or unit with this id; null if none. */
    public AwsOrgUnit unit(String id) {
        return unitsById.get(id);
    }

    /** The units whose parent is {@code parentId}, in estate order. */
    public List<AwsOrgUnit> childUnits(String parentId) {
        return units.stream().filter(u -> parentId.equals(u.parentId())).toList();
    }

    /** The accounts directly in {@code parentId}, in estate order. */
    public List<AwsAccount> accountsIn(String parentId) {
        return accounts.stream().filter(a -> parentId.equals(a.parentId())).toList();
    }

    public String roleName() {
        return roleName;
    }

    /** Bucket exposure, security group rules and MFA devices: what the security checks read. */
    public AwsSecurity security() {
        return security;
    }

    /** The organization's account records (what Organizations ListAccounts lists), in estate order. */
    public List<AwsResource> organizationAccounts() {
        return List.copyOf(organizationAccounts.values());
    }

    /**
     * Resources of {@code type} that a listing call in {@code account} and {@code region} returns now: the
     * region's own for regional types, all of the account's for global and account-wide types.
     */
    public List<AwsResource> list(String account, String region, AwsType type) {
        return listAt(account, region, type, timeline.elapsedNanos());
    }

    /** The same listing {@code elapsedNanos} after the simulator started. */
    public List<AwsResource> listAt(String account, String region, AwsType type, long elapsedNanos) {
        AwsShard s = shardFor(account, region, type);
        if (type == AwsType.ORGANIZATIONS_ACCOUNT) {
            AwsResource own = organizationAccounts.get(account);
            return own == null ? List.of() : List.of(own);
        }
        return s == null ? List.of() : s.at(type, elapsedNanos);
    }

    /** The resource of {@code type} with listing id {@code id} in that account and region, if it exists now. */
    public AwsResource find(String account, String region, AwsType type, String id) {
        AwsShard s = shardFor(account, region, type);
        AwsResource r = s == null ? null : s.find(type, id);
        return r != null && r.existsAt(timeline.elapsedNanos()) ? r : null;
    }

    /** A bucket by name, in any account, if it exists now. */
    public AwsResource bucket(String name) {
        Matcher m = BUCKET.matcher(name == null ? "" : name);
        return m.matches() ? find(m.group(1), GLOBAL, AwsType.S3_BUCKET, name) : null;
    }

    /**
     * The resource of {@code type} with the listing id {@code id}, in any account; null if none. Buckets are
     * found by name at once; other types are searched account by account (for tests and small estates).
     */
    public AwsResource find(AwsType type, String id) {
        if (type == AwsType.S3_BUCKET) {
            return bucket(id);
        }
        for (AwsAccount a : accounts) {
            for (String region : type.placement() == AwsType.Placement.REGIONAL ? a.regions() : List.of(GLOBAL)) {
                AwsResource r = find(a.id(), region, type, id);
                if (r != null) {
                    return r;
                }
            }
        }
        return null;
    }

    /** Whether {@code arn:aws:iam::account:role/name} exists. */
    public boolean roleExists(String account, String name) {
        return find(account, GLOBAL, AwsType.IAM_ROLE, name) != null;
    }

    /**
     * Every resource that ever exists (churned ones included), account by account: its organization record,
     * its global part, then each region. Shards are generated for the walk and not cached.
     */
    public void forEachResource(Consumer<AwsResource> each) {
        for (AwsAccount a : accounts) {
            each.accept(organizationAccounts.get(a.id()));
            if (a.suspended()) {
                continue;
            }
            forEachIn(generator.global(a, roleName), each);
            for (String region : a.regions()) {
                forEachIn(generator.regional(a.id(), region), each);
            }
        }
    }

    private static void forEachIn(AwsShard s, Consumer<AwsResource> each) {
        for (List<AwsResource> l : s.lists()) {
            l.forEach(each);
        }
    }

    /** The shard a listing reads; null for unknown and suspended accounts and regions the account has not enabled. */
    private AwsShard shardFor(String account, String region, AwsType type) {
        AwsAccount a = accountsById.get(account);
        if (a == null || a.suspended()) {
            return null;
        }
        if (type.placement() == AwsType.Placement.REGIONAL) {
            return a.regions().contains(region) ? shard(a, region) : null;
        }
        return shard(a, GLOBAL);
    }

    /** Whether {@code region} is an opt-in region: one that not every account has enabled. */
    public boolean optInRegion(String region) {
        return optIn.contains(region);
    }

    /** Whether {@code region} is an opt-in region of the organization that {@code account} has not enabled. */
    public boolean regionDisabled(String account, String region) {
        AwsAccount a = accountsById.get(account);
        return a != null && regions.contains(region) && !a.regions().contains(region);
    }

    AwsShard shard(AwsAccount a, String region) {
        return cache.get(a.id() + "|" + region, () -> GLOBAL.equals(region) ? generator.global(a, roleName)
            : generator.regional(a.id(), region));
    }

    /** Shards generated and cached right now (for tests of the bound). */
    int cachedShards() {
        return cache.size();
    }
}
