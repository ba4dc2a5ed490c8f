package io.cloudg.sim.config;

import io.cloudg.sim.estate.AwsType;
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
 */
public record AwsSpec(int accounts, String managementAccount, String organizationId, List<String> regions,
                      String roleName, Map<AwsType, Integer> counts, SecuritySpec security) {

    public static final String DEFAULT_ROLE = "OrganizationAccountAccessRole";

    public AwsSpec {
        regions = List.copyOf(regions);
        Map<AwsType, Integer> c = new EnumMap<>(AwsType.class);
        c.putAll(counts);
        counts = java.util.Collections.unmodifiableMap(c);
        security = security == null ? SecuritySpec.DEFAULTS : security;
    }

    /** An organization with the default exposure ({@link SecuritySpec#DEFAULTS}). */
    public AwsSpec(int accounts, String managementAccount, String organizationId, List<String> regions, String roleName,
                   Map<AwsType, Integer> counts) {
        this(accounts, managementAccount, organizationId, regions, roleName, counts, SecuritySpec.DEFAULTS);
    }

    public AwsSpec withSecurity(SecuritySpec s) {
        return new AwsSpec(accounts, managementAccount, organizationId, regions, roleName, counts, s);
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
        n.onlyKeys("accounts", "management_account", "organization_id", "regions", "role_name", "resources", "security");
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
            if (!regions.get(i).matches("[a-z]{2}(-[a-z]+)+-\\d")) {
                throw new SpecException(n.get("regions").path() + "[" + i + "]: expected an AWS region name such as "
                    + "us-east-1, got \"" + regions.get(i) + "\"");
            }
        }
        if (regions.stream().distinct().count() != regions.size()) {
            throw n.get("regions").error("lists a region twice");
        }
        return new AwsSpec(n.get("accounts").positiveInt(dflt.accounts()),
            n.get("management_account").matching("\\d{12}", "a 12-digit account id", dflt.managementAccount()),
            n.get("organization_id").matching("o-[a-z0-9]{10,32}", "an organization id such as o-a1b2c3d4e5",
                dflt.organizationId()),
            regions,
            n.get("role_name").matching("[\\w+=,.@-]{1,64}", "an IAM role name", dflt.roleName()),
            counts, SecuritySpec.read(n.get("security"), dflt.security()));
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
