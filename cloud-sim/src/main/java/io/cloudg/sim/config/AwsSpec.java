package io.cloudg.sim.config;

import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The AWS organization.
 *
 * @param accounts          accounts in the organization, management account included
 * @param managementAccount the management account id (null: derived from the seed)
 * @param organizationId    the organization id {@code o-...} (null: derived from the seed)
 * @param regions           enabled regions (DescribeRegions answers these)
 * @param roleName          role that exists in every member account and that AssumeRole accepts
 * @param counts            resources per account x region (regional types) or per account (IAM, S3,
 *                          Route 53, CloudFront)
 * @param security          how exposed the estate is (public buckets, open security groups, users
 *                          without MFA)
 * @param units             the organizational units ({@code aws.organizational_units}), see {@link OuSpec}
 * @param suspendedAccounts how many member accounts are suspended (chosen by the seed)
 * @param optInRegions      opt-in regions and the share of accounts (0..1] that enabled each, chosen by the
 *                          seed; {@code regions} are enabled in every account
 */
public record AwsSpec(int accounts, String managementAccount, String organizationId, List<String> regions,
                      String roleName, Map<AwsType, Integer> counts, SecuritySpec security, List<OuSpec> units,
                      int suspendedAccounts, Map<String, Double> optInRegions) {

    public static final String DEFAULT_ROLE = "OrganizationAccountAccessRole";

    /**
     * One organizational unit of the estate file.
     *
     * @param path     {@code Prod/Web} (under {@code Root}; parents are created as needed)
     * @param accounts member accounts placed directly in it; null when the units are listed without counts
     *                 (then members are dealt round-robin over the listed units)
     */
    public record OuSpec(String path, Integer accounts) {
    }

    public AwsSpec {
        regions = List.copyOf(regions);
        Map<AwsType, Integer> c = new EnumMap<>(AwsType.class);
        c.putAll(counts);
        counts = java.util.Collections.unmodifiableMap(c);
        security = security == null ? SecuritySpec.DEFAULTS : security;
        units = units == null ? List.of() : List.copyOf(units);
        optInRegions = optInRegions == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(optInRegions));
    }

    /** An organization with the default exposure ({@link SecuritySpec#DEFAULTS}). */
    public AwsSpec(int accounts, String managementAccount, String organizationId, List<String> regions, String roleName,
                   Map<AwsType, Integer> counts) {
        this(accounts, managementAccount, organizationId, regions, roleName, counts, SecuritySpec.DEFAULTS);
    }

    /** An organization without OUs, suspended accounts or opt-in regions. */
    public AwsSpec(int accounts, String managementAccount, String organizationId, List<String> regions, String roleName,
                   Map<AwsType, Integer> counts, SecuritySpec security) {
        this(accounts, managementAccount, organizationId, regions, roleName, counts, security, List.of(), 0, Map.of());
    }

    public AwsSpec withSecurity(SecuritySpec s) {
        return new AwsSpec(accounts, managementAccount, organizationId, regions, roleName, counts, s, units,
            suspendedAccounts, optInRegions);
    }

    /** The same organization with these OUs, suspended accounts and opt-in regions. */
    public AwsSpec withOrganization(List<OuSpec> u, int suspended, Map<String, Double> optIn) {
        return new AwsSpec(accounts, managementAccount, organizationId, regions, roleName, counts, security, u, suspended,
            optIn);
    }

    public int count(AwsType t) {
        return counts.getOrDefault(t, 0);
    }

    /** The same counts for every countable type. */
    public static Map<AwsType, Integer> uniformCounts(int n) {
        Map<AwsType, Integer> m = new LinkedHashMap<>();
        for (AwsType t : AwsType.values()) {
            if (t.countable()) {
                m.put(t, n);
            }
        }
        return m;
    }

    static AwsSpec read(SpecNode n, AwsSpec dflt) {
        if (!n.present()) {
            return dflt;
        }
        n.onlyKeys("accounts", "management_account", "organization_id", "regions", "role_name", "resources", "security",
            "organizational_units", "suspended_accounts", "opt_in_regions");
        Map<AwsType, Integer> counts = new LinkedHashMap<>();
        SpecNode res = n.get("resources");
        if (res.present()) {
            for (Map.Entry<String, SpecNode> e : res.entries().entrySet()) {
                AwsType t = AwsType.byCfnType(e.getKey());
                if (t == null || !t.countable()) {
                    throw e.getValue().error("unknown resource type (known: " + knownTypes() + ")");
                }
                counts.put(t, e.getValue().nonNegativeInt(0));
            }
        } else {
            counts.putAll(dflt.counts());
        }
        List<String> regions = n.get("regions").stringList(dflt.regions());
        for (int i = 0; i < regions.size(); i++) {
            if (!isRegion(regions.get(i))) {
                throw new SpecException(n.get("regions").path() + "[" + i + "]: expected an AWS region name such as "
                    + "us-east-1, got \"" + regions.get(i) + "\"");
            }
        }
        if (regions.stream().distinct().count() != regions.size()) {
            throw n.get("regions").error("lists a region twice");
        }
        int accounts = n.get("accounts").positiveInt(dflt.accounts());
        List<OuSpec> units = readUnits(n.get("organizational_units"), accounts - 1);
        int suspended = n.get("suspended_accounts").nonNegativeInt(0);
        if (suspended > accounts - 1) {
            throw n.get("suspended_accounts").error("expected at most " + (accounts - 1) + " (the member accounts; the "
                + "management account cannot be suspended), got " + suspended);
        }
        Map<String, Double> optIn = new LinkedHashMap<>();
        for (Map.Entry<String, SpecNode> e : n.get("opt_in_regions").entries().entrySet()) {
            if (!isRegion(e.getKey())) {
                throw e.getValue().error("expected an AWS region name such as af-south-1");
            }
            if (regions.contains(e.getKey())) {
                throw e.getValue().error("is already in aws.regions (enabled in every account)");
            }
            double share = e.getValue().fraction(0, false);
            if (share == 0) {
                throw e.getValue().error("expected a share of accounts above 0 and at most 1, got 0");
            }
            optIn.put(e.getKey(), share);
        }
        return new AwsSpec(accounts,
            n.get("management_account").matching("\\d{12}", "a 12-digit account id", dflt.managementAccount()),
            n.get("organization_id").matching("o-[a-z0-9]{10,32}", "an organization id such as o-a1b2c3d4e5",
                dflt.organizationId()),
            regions,
            n.get("role_name").matching("[\\w+=,.@-]{1,64}", "an IAM role name", dflt.roleName()),
            counts, SecuritySpec.read(n.get("security"), dflt.security()), units, suspended, optIn);
    }

    private static boolean isRegion(String s) {
        return s.matches("[a-z]{2}(-[a-z]+)+-\\d");
    }

    /**
     * {@code [Prod, Prod/Web, Dev]} (members dealt round-robin over the listed units) or
     * {@code {Prod/Web: 400, Dev: 100}} (that many members directly in each; the rest stay in Root).
     */
    private static List<OuSpec> readUnits(SpecNode n, int members) {
        List<OuSpec> out = new ArrayList<>();
        if (!n.present()) {
            return out;
        }
        if (n.isList()) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (SpecNode item : n.items()) {
                String path = unitPath(item, item.string(null));
                if (!seen.add(path)) {
                    throw item.error("lists the organizational unit " + path + " twice");
                }
                out.add(new OuSpec(path, null));
            }
            return out;
        }
        int placed = 0;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Map.Entry<String, SpecNode> e : n.entries().entrySet()) {
            int count = e.getValue().nonNegativeInt(0);
            placed += count;
            String path = unitPath(e.getValue(), e.getKey());
            if (!seen.add(path)) {
                throw e.getValue().error("names the organizational unit " + path + " twice");
            }
            out.add(new OuSpec(path, count));
        }
        if (placed > members) {
            throw n.error("places " + placed + " accounts in organizational units, but the organization has only "
                + members + " member accounts");
        }
        return out;
    }

    /** {@code Root/Prod/Web} or {@code Prod/Web} as {@code Prod/Web}, each name as Organizations allows it. */
    private static String unitPath(SpecNode n, String raw) {
        String p = raw.startsWith("Root/") ? raw.substring(5) : raw;
        if (p.isEmpty() || !p.matches("[\\w .+=@-]{1,128}(/[\\w .+=@-]{1,128})*")) {
            throw n.error("expected an organizational unit path such as Prod/Web or Root/Prod/Web, got \"" + raw + "\"");
        }
        return p;
    }

    private static String knownTypes() {
        StringBuilder sb = new StringBuilder();
        for (AwsType t : AwsType.values()) {
            if (t.countable()) {
                sb.append(sb.length() == 0 ? "" : ", ").append(t.cfnType());
            }
        }
        return sb.toString();
    }
}
