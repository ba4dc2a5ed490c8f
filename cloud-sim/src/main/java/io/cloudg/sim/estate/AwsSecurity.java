package io.cloudg.sim.estate;

import io.cloudg.sim.config.SecuritySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the security checks read, per resource: each S3 bucket's Block Public Access, bucket policy and ACL,
 * each security group's rules, each IAM user's MFA devices. Generated with the estate from
 * {@link SecuritySpec}: exactly {@code share x count} resources of each kind are exposed (chosen by ranking
 * every resource of the kind on a hash of the seed and its ARN, so the choice does not depend on generation
 * order), each in one of a few realistic ways; the others are configured safely, some with near misses.
 *
 * <p>What "exposed" means, as AWS defines it:
 * <ul>
 *   <li>a bucket is public when its policy is public ({@code GetBucketPolicyStatus} {@code IsPublic}) and its
 *       Block Public Access does not set {@code RestrictPublicBuckets}, or when its ACL grants anything to
 *       {@code AllUsers} or {@code AuthenticatedUsers} and its Block Public Access does not set
 *       {@code IgnorePublicAcls} (no configuration counts as every flag off);</li>
 *   <li>a security group is open on an admin port when an inbound rule from {@code 0.0.0.0/0} or {@code ::/0}
 *       for every protocol ({@code -1}) or for TCP covers port 22 (SSH) or 3389 (RDP);</li>
 *   <li>a user lacks MFA when {@code ListMFADevices} lists no device for it.</li>
 * </ul>
 */
public final class AwsSecurity {
    public static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    public static final String AUTHENTICATED_USERS = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";
    public static final String LOG_DELIVERY = "http://acs.amazonaws.com/groups/s3/LogDelivery";
    /** TCP ports whose exposure to the whole internet is an administrative door. */
    public static final SortedMap<Integer, String> ADMIN_PORTS = Collections.unmodifiableSortedMap(
        new TreeMap<>(Map.of(22, "SSH", 3389, "RDP")));
    /** The CIDRs meaning "anywhere". */
    public static final List<String> ANYWHERE = List.of("0.0.0.0/0", "::/0");

    /** A bucket's Block Public Access configuration. */
    public record PublicAccessBlock(boolean blockPublicAcls, boolean ignorePublicAcls, boolean blockPublicPolicy,
                                    boolean restrictPublicBuckets) {
        static final PublicAccessBlock ALL_ON = new PublicAccessBlock(true, true, true, true);
        static final PublicAccessBlock ALL_OFF = new PublicAccessBlock(false, false, false, false);
    }

    /**
     * One ACL grant, to a canonical user ({@code canonicalId}, {@code displayName}) or to a group
     * ({@code groupUri}).
     */
    public record Grant(String canonicalId, String displayName, String groupUri, String permission) {
        static Grant group(String uri, String permission) {
            return new Grant(null, null, uri, permission);
        }

        /** A grant to everyone or to every AWS user. */
        public boolean toEveryone() {
            return ALL_USERS.equals(groupUri) || AUTHENTICATED_USERS.equals(groupUri);
        }
    }

    /**
     * One bucket's exposure.
     *
     * @param publicAccessBlock its Block Public Access configuration; null when none is configured
     * @param policyPublic      null when it has no bucket policy, else whether the policy grants public access
     * @param grants            its ACL, the owner's {@code FULL_CONTROL} first
     */
    public record Bucket(String name, String account, String region, PublicAccessBlock publicAccessBlock,
                         Boolean policyPublic, List<Grant> grants) {
        public Bucket {
            grants = List.copyOf(grants);
        }

        public boolean publicViaPolicy() {
            return Boolean.TRUE.equals(policyPublic) && (publicAccessBlock == null || !publicAccessBlock.restrictPublicBuckets());
        }

        public boolean publicViaAcl() {
            return grants.stream().anyMatch(Grant::toEveryone)
                && (publicAccessBlock == null || !publicAccessBlock.ignorePublicAcls());
        }

        public boolean isPublic() {
            return publicViaPolicy() || publicViaAcl();
        }
    }

    /**
     * One security group rule as DescribeSecurityGroups returns it.
     *
     * @param protocol  {@code tcp}, {@code udp}, {@code icmp} or {@code -1} (every protocol)
     * @param fromPort  first port (ICMP type); null for {@code -1}
     * @param toPort    last port (ICMP code); null for {@code -1}
     * @param ipv4Cidrs IPv4 ranges
     * @param ipv6Cidrs IPv6 ranges
     * @param groupIds  security groups of the same account it refers to
     * @param description the ranges' description, or null
     */
    public record Rule(String protocol, Integer fromPort, Integer toPort, List<String> ipv4Cidrs, List<String> ipv6Cidrs,
                       List<String> groupIds, String description) {
        public Rule {
            ipv4Cidrs = List.copyOf(ipv4Cidrs);
            ipv6Cidrs = List.copyOf(ipv6Cidrs);
            groupIds = List.copyOf(groupIds);
        }

        static Rule tcp(int from, int to, List<String> v4, List<String> v6, String description) {
            return new Rule("tcp", from, to, v4, v6, List.of(), description);
        }

        /** The admin ports ({@link #ADMIN_PORTS}) this rule lets anywhere reach. */
        public SortedSet<Integer> adminPortsOpenToAnywhere() {
            SortedSet<Integer> out = new TreeSet<>();
            boolean anywhere = ipv4Cidrs.stream().anyMatch(ANYWHERE::contains) || ipv6Cidrs.stream().anyMatch(ANYWHERE::contains);
            boolean all = "-1".equals(protocol);
            if (!anywhere || !(all || "tcp".equals(protocol) || "6".equals(protocol))) {
                return out;
            }
            for (int p : ADMIN_PORTS.keySet()) {
                if (all || (fromPort != null && toPort != null && fromPort <= p && p <= toPort)) {
                    out.add(p);
                }
            }
            return out;
        }
    }

    /** One security group's rules. */
    public record SecurityGroup(String id, List<Rule> ingress, List<Rule> egress) {
        public SecurityGroup {
            ingress = List.copyOf(ingress);
            egress = List.copyOf(egress);
        }

        /** The admin ports its inbound rules let anywhere reach; empty when it is not open. */
        public SortedSet<Integer> adminPortsOpenToAnywhere() {
            SortedSet<Integer> out = new TreeSet<>();
            ingress.forEach(r -> out.addAll(r.adminPortsOpenToAnywhere()));
            return Collections.unmodifiableSortedSet(out);
        }
    }

    /** One MFA device of a user, as ListMFADevices returns it. */
    public record MfaDevice(String userName, String serialNumber, Instant enabled) {
    }

    private static final String OFFICE = "203.0.113.0/24";
    private static final String VPC_RANGE = "10.0.0.0/8";

    private final Map<String, String> canonicalIds;
    private final Map<String, Bucket> buckets;
    private final Map<String, SecurityGroup> groups;
    private final Map<String, List<MfaDevice>> mfa;

    private AwsSecurity(Map<String, String> canonicalIds, Map<String, Bucket> buckets, Map<String, SecurityGroup> groups,
                        Map<String, List<MfaDevice>> mfa) {
        this.canonicalIds = canonicalIds;
        this.buckets = buckets;
        this.groups = groups;
        this.mfa = mfa;
    }

    /** The S3 canonical user id of an account (64 hex digits), as bucket owners and ACL grants name it. */
    public String canonicalUserId(String account) {
        return canonicalIds.get(account);
    }

    /** A bucket's exposure; null for a bucket the estate does not hold. */
    public Bucket bucket(String name) {
        return buckets.get(name);
    }

    /** A security group's rules; null for a group the estate does not hold. */
    public SecurityGroup securityGroup(String id) {
        return groups.get(id);
    }

    /** A user's MFA devices; empty for a user without any (or that the estate does not hold). */
    public List<MfaDevice> mfaDevices(String account, String userName) {
        return mfa.getOrDefault(account + "/" + userName, List.of());
    }

    static AwsSecurity generate(SecuritySpec spec, Ids ids, List<AwsAccount> accounts, List<AwsResource> resources) {
        Map<String, String> canonical = new HashMap<>();
        Map<String, String> displayNames = new HashMap<>();
        for (AwsAccount a : accounts) {
            canonical.put(a.id(), ids.hex("s3/canonical-user/" + a.id(), 64));
            displayNames.put(a.id(), a.name());
        }
        List<AwsResource> bucketList = new ArrayList<>();
        List<AwsResource> groupList = new ArrayList<>();
        List<AwsResource> userList = new ArrayList<>();
        Map<String, List<String>> groupsByPlace = new HashMap<>();
        for (AwsResource r : resources) {
            switch (r.type()) {
                case S3_BUCKET -> bucketList.add(r);
                case EC2_SECURITY_GROUP -> {
                    groupList.add(r);
                    groupsByPlace.computeIfAbsent(r.account() + "/" + r.region(), k -> new ArrayList<>()).add(r.id());
                }
                case IAM_USER -> userList.add(r);
                default -> {
                }
            }
        }

        Set<String> publicBuckets = pick(ids, "public-bucket", bucketList, spec.publicBucketShare());
        Map<String, Bucket> buckets = new HashMap<>();
        for (AwsResource b : bucketList) {
            Grant owner = new Grant(canonical.get(b.account()), displayNames.get(b.account()), null, "FULL_CONTROL");
            buckets.put(b.id(), bucket(ids.random("security/s3/" + b.arn()), b, owner, publicBuckets.contains(b.arn())));
        }

        Set<String> openGroups = pick(ids, "open-security-group", groupList, spec.openSecurityGroupShare());
        Map<String, SecurityGroup> groups = new HashMap<>();
        for (AwsResource g : groupList) {
            List<String> peers = groupsByPlace.get(g.account() + "/" + g.region());
            groups.put(g.id(), securityGroup(ids.random("security/sg/" + g.arn()), g, peers, openGroups.contains(g.arn())));
        }

        Set<String> withoutMfa = pick(ids, "user-without-mfa", userList, spec.usersWithoutMfaShare());
        Map<String, List<MfaDevice>> mfa = new HashMap<>();
        for (AwsResource u : userList) {
            if (!withoutMfa.contains(u.arn())) {
                mfa.put(u.account() + "/" + u.id(), devices(ids, u));
            }
        }
        return new AwsSecurity(canonical, buckets, groups, mfa);
    }

    /** Exactly {@code share x count} of {@code rs} (their ARNs), ranked on a hash of the seed and the ARN. */
    private static Set<String> pick(Ids ids, String what, List<AwsResource> rs, double share) {
        int k = SecuritySpec.selected(share, rs.size());
        if (k == 0) {
            return Set.of();
        }
        Map<String, Long> rank = new HashMap<>();
        for (AwsResource r : rs) {
            rank.put(r.arn(), ids.random("security/" + what + "/" + r.arn()).nextLong());
        }
        List<String> arns = new ArrayList<>(rank.keySet());
        arns.sort(Comparator.comparingLong((String a) -> rank.get(a)).thenComparing(a -> a));
        return new HashSet<>(arns.subList(0, k));
    }

    private static Bucket bucket(SplittableRandom rnd, AwsResource b, Grant owner, boolean exposed) {
        String n = b.id();
        String a = b.account();
        String r = b.region();
        if (exposed) {
            return switch (rnd.nextInt(3)) {
                // a static website: a public-read policy, Block Public Access never configured
                case 0 -> new Bucket(n, a, r, null, true, List.of(owner));
                // a public-read canned ACL on an old bucket
                case 1 -> new Bucket(n, a, r, null, null, List.of(owner, Grant.group(ALL_USERS, "READ")));
                // Block Public Access explicitly turned off, ACL to every AWS user and a public policy
                default -> new Bucket(n, a, r, PublicAccessBlock.ALL_OFF, true,
                    List.of(owner, Grant.group(AUTHENTICATED_USERS, "READ")));
            };
        }
        int v = rnd.nextInt(20);
        if (v < 8) {
            // the default since April 2023: Block Public Access on, ACLs disabled, no policy
            return new Bucket(n, a, r, PublicAccessBlock.ALL_ON, null, List.of(owner));
        } else if (v < 11) {
            // a public policy from before Block Public Access, which now restricts it
            return new Bucket(n, a, r, PublicAccessBlock.ALL_ON, true, List.of(owner));
        } else if (v < 14) {
            // a log bucket: S3 log delivery may write, the policy names one other account
            return new Bucket(n, a, r, null, false, List.of(owner, Grant.group(LOG_DELIVERY, "WRITE"),
                Grant.group(LOG_DELIVERY, "READ_ACP")));
        } else if (v < 17) {
            // a public-read ACL that Block Public Access ignores
            return new Bucket(n, a, r, new PublicAccessBlock(false, true, false, true), null,
                List.of(owner, Grant.group(ALL_USERS, "READ")));
        }
        // never exposed, never configured
        return new Bucket(n, a, r, null, null, List.of(owner));
    }

    private static SecurityGroup securityGroup(SplittableRandom rnd, AwsResource g, List<String> peers, boolean exposed) {
        List<String> v4 = List.of("0.0.0.0/0");
        List<String> v6 = List.of("::/0");
        List<Rule> in;
        if (exposed) {
            in = switch (rnd.nextInt(5)) {
                case 0 -> List.of(Rule.tcp(22, 22, v4, List.of(), "SSH from anywhere"),
                    Rule.tcp(443, 443, v4, List.of(), null));
                case 1 -> List.of(Rule.tcp(3389, 3389, v4, v6, "RDP"));
                case 2 -> List.of(new Rule("-1", null, null, v4, List.of(), List.of(), "temporary: allow all"));
                case 3 -> List.of(Rule.tcp(0, 65535, List.of(), v6, null));
                default -> List.of(Rule.tcp(80, 80, v4, v6, null), Rule.tcp(22, 22, List.of(), v6, "SSH over IPv6"));
            };
        } else {
            String peer = peers.get(rnd.nextInt(peers.size()));
            in = switch (rnd.nextInt(5)) {
                case 0 -> List.of(Rule.tcp(80, 80, v4, v6, null), Rule.tcp(443, 443, v4, v6, "HTTPS"));
                case 1 -> List.of(Rule.tcp(22, 22, List.of(OFFICE), List.of(), "SSH from the office"),
                    Rule.tcp(3389, 3389, List.of(VPC_RANGE), List.of(), "RDP inside the network"));
                case 2 -> List.of(new Rule("-1", null, null, List.of(), List.of(), List.of(g.id()), null));
                case 3 -> List.of(new Rule("tcp", 5432, 5432, List.of(), List.of(), List.of(peer), "PostgreSQL from the app tier"),
                    new Rule("icmp", -1, -1, v4, List.of(), List.of(), "ping"));
                default -> List.of(Rule.tcp(2222, 2222, v4, List.of(), "git over SSH"), Rule.tcp(8080, 8090, v4, v6, null),
                    new Rule("udp", 0, 65535, List.of(VPC_RANGE), List.of(), List.of(), null));
            };
        }
        List<Rule> out = rnd.nextInt(3) == 0
            ? List.of(new Rule("-1", null, null, v4, v6, List.of(), null))
            : List.of(new Rule("-1", null, null, v4, List.of(), List.of(), null));
        return new SecurityGroup(g.id(), in, out);
    }

    private static List<MfaDevice> devices(Ids ids, AwsResource u) {
        SplittableRandom rnd = ids.random("security/mfa/" + u.arn());
        Instant enabled = u.created().plusSeconds(3600L + rnd.nextLong(30L * 24 * 3600));
        List<MfaDevice> out = new ArrayList<>();
        out.add(new MfaDevice(u.id(), "arn:aws:iam::" + u.account() + ":mfa/" + u.id(), enabled));
        if (rnd.nextInt(3) == 0) {
            out.add(new MfaDevice(u.id(), "GAHT" + ids.digits("security/mfa-token/" + u.arn(), 8),
                enabled.plusSeconds(rnd.nextLong(90L * 24 * 3600))));
        }
        return List.copyOf(out);
    }
}
