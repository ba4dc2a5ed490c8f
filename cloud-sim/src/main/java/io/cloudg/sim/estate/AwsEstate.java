package io.cloudg.sim.estate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The AWS organization with its resources, indexed the way the listing APIs read them. */
public final class AwsEstate {
    /** Region name used for global services. */
    public static final String GLOBAL = "global";

    private record ListKey(String account, String region, AwsType type) {
    }

    private record IdKey(AwsType type, String id) {
    }

    private final String organizationId;
    private final AwsAccount management;
    private final List<AwsAccount> accounts;
    private final Map<String, AwsAccount> accountsById;
    private final List<String> regions;
    private final String roleName;
    private final Map<ListKey, List<AwsResource>> lists = new HashMap<>();
    private final Map<IdKey, AwsResource> byId = new HashMap<>();
    private final List<AwsResource> all;
    private final java.util.Set<String> roles = new java.util.HashSet<>();
    private final AwsSecurity security;

    AwsEstate(String organizationId, List<AwsAccount> accounts, List<String> regions, String roleName,
              List<AwsResource> resources, AwsSecurity security) {
        this.organizationId = organizationId;
        this.security = security;
        this.accounts = List.copyOf(accounts);
        this.management = accounts.stream().filter(AwsAccount::management).findFirst().orElseThrow();
        Map<String, AwsAccount> m = new LinkedHashMap<>();
        accounts.forEach(a -> m.put(a.id(), a));
        this.accountsById = Collections.unmodifiableMap(m);
        this.regions = List.copyOf(regions);
        this.roleName = roleName;
        this.all = List.copyOf(resources);
        for (AwsResource r : resources) {
            String listRegion = r.type().placement() == AwsType.Placement.REGIONAL ? r.region() : GLOBAL;
            lists.computeIfAbsent(new ListKey(r.account(), listRegion, r.type()), k -> new ArrayList<>()).add(r);
            if (r.type() == AwsType.IAM_ROLE) {
                roles.add(r.account() + "/" + r.id());
            } else {
                byId.put(new IdKey(r.type(), r.id()), r);
            }
        }
        lists.replaceAll((k, v) -> List.copyOf(v));
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

    public List<String> regions() {
        return regions;
    }

    public String roleName() {
        return roleName;
    }

    public List<AwsResource> all() {
        return all;
    }

    /** Bucket exposure, security group rules and MFA devices: what the security checks read. */
    public AwsSecurity security() {
        return security;
    }

    /**
     * Resources of {@code type} that a listing call in {@code account} and {@code region} returns: the
     * region's own for regional types, all of the account's for global and account-wide types.
     */
    public List<AwsResource> list(String account, String region, AwsType type) {
        String listRegion = type.placement() == AwsType.Placement.REGIONAL ? region : GLOBAL;
        return lists.getOrDefault(new ListKey(account, listRegion, type), List.of());
    }

    /**
     * The resource of {@code type} with the listing id {@code id}, in any account; null if none. Not for
     * IAM roles, whose names repeat across accounts (see {@link #roleExists}).
     */
    public AwsResource find(AwsType type, String id) {
        return byId.get(new IdKey(type, id));
    }

    /** Whether {@code arn:aws:iam::account:role/name} exists. */
    public boolean roleExists(String account, String name) {
        return roles.contains(account + "/" + name);
    }
}
