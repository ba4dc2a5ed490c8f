package io.cloudg.sim.estate;

import io.cloudg.sim.config.SecuritySpec;
import io.cloudg.sim.core.AwsType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What the security checks read, per resource: each S3 bucket's Block Public Access, bucket policy and ACL,
 * each security group's rules, each IAM user's MFA devices. Worked out on demand from {@link SecuritySpec} and
 * a {@link Plan} made at start: exactly {@code share x count} resources of each kind are exposed (chosen by
 * ranking every eligible resource of the kind on a hash of the seed and its ARN, so the choice does not
 * depend on generation order), each in one of a few realistic ways; the others are configured safely, some
 * with near misses. Resources that churn while a map runs are never exposed.
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

    /** The exposed kinds, each ranked on its own. */
    enum Kind {
        BUCKET("public-bucket", AwsType.S3_BUCKET),
        GROUP("open-security-group", AwsType.EC2_SECURITY_GROUP),
        USER("user-without-mfa", AwsType.IAM_USER);

        final String salt;
        final AwsType type;

        Kind(String salt, AwsType type) {
            this.salt = salt;
            this.type = type;
        }
    }

    /**
     * Which resources are exposed: for each kind, the rank (a hash of the seed and the ARN) and ARN of the last
     * exposed one when every eligible resource of the kind is ranked; exposed are those ranked at or before
     * it. Eligible are the resources that exist throughout (churned ones are always configured safely).
     */
    record Plan(Ids ids, EnumMap<Kind, Cut> cuts) {
    }

    /** The last exposed resource of a kind; {@code count} 0 means none is. */
    record Cut(long rank, String arn, int count) {
        static final Cut NONE = new Cut(Long.MIN_VALUE, "", 0);

        boolean includes(long rank, String arn) {
            if (count == 0) {
                return false;
            }
            return rank < this.rank || (rank == this.rank && arn.compareTo(this.arn) <= 0);
        }
    }

    private final AwsEstate estate;
    private final Plan plan;

    AwsSecurity(AwsEstate estate, Plan plan) {
        this.estate = estate;
        this.plan = plan;
    }

    /**
     * Ranks every eligible resource of each kind and keeps where the exposed ones end: exactly
     * {@code share x count} (rounded half up) of each kind are exposed, chosen across the whole estate.
     *
     * @param eligible per kind, calls back with the ARN of every eligible resource of the kind
     */
    static Plan plan(SecuritySpec spec, Ids ids, java.util.function.BiConsumer<AwsType, Consumer<String>> eligible) {
        EnumMap<Kind, Cut> cuts = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) {
            double share = switch (k) {
                case BUCKET -> spec.publicBucketShare();
                case GROUP -> spec.openSecurityGroupShare();
                case USER -> spec.usersWithoutMfaShare();
            };
            List<String> arns = new ArrayList<>();
            eligible.accept(k.type, arns::add);
            int n = SecuritySpec.selected(share, arns.size());
            if (n == 0) {
                cuts.put(k, Cut.NONE);
                continue;
            }
            long[] ranks = new long[arns.size()];
            for (int i = 0; i < ranks.length; i++) {
                ranks[i] = rank(ids, k, arns.get(i));
            }
            long[] sorted = ranks.clone();
            Arrays.sort(sorted);
            long last = sorted[n - 1];
            List<String> tied = new ArrayList<>();
            int below = 0;
            for (int i = 0; i < ranks.length; i++) {
                if (ranks[i] == last) {
                    tied.add(arns.get(i));
                } else if (ranks[i] < last) {
                    below++;
                }
            }
            Collections.sort(tied);
            cuts.put(k, new Cut(last, tied.get(n - below - 1), n));
        }
        return new Plan(ids, cuts);
    }

    private static long rank(Ids ids, Kind k, String arn) {
        return ids.random("security/" + k.salt + "/" + arn).nextLong();
    }

    private boolean exposed(Kind k, AwsResource r) {
        return r.life().stable() && plan.cuts().get(k).includes(rank(plan.ids(), k, r.arn()), r.arn());
    }

    /** The S3 canonical user id of an account (64 hex digits), as bucket owners and ACL grants name it. */
    public String canonicalUserId(String account) {
        return plan.ids().hex("s3/canonical-user/" + account, 64);
    }

    /** A bucket's exposure, by name; null for a bucket the estate does not hold now. */
    public Bucket bucket(String name) {
        AwsResource b = estate.bucket(name);
        return b == null ? null : bucket(b);
    }

    /** A bucket's exposure. */
    public Bucket bucket(AwsResource b) {
        AwsAccount a = estate.account(b.account());
        Grant owner = new Grant(canonicalUserId(b.account()), a == null ? b.account() : a.name(), null, "FULL_CONTROL");
        return bucket(plan.ids().random("security/s3/" + b.arn()), b, owner, exposed(Kind.BUCKET, b));
    }

    /** A security group's rules. */
    public SecurityGroup securityGroup(AwsResource g) {
        AwsAccount a = estate.account(g.account());
        List<String> peers = new ArrayList<>();
        if (a != null) {
            for (AwsResource p : estate.shard(a, g.region()).all(AwsType.EC2_SECURITY_GROUP)) {
                if (p.life().stable()) {
                    peers.add(p.id());
                }
            }
        }
        if (peers.isEmpty()) {
            peers.add(g.id());
        }
        return securityGroup(plan.ids().random("security/sg/" + g.arn()), g, peers, exposed(Kind.GROUP, g));
    }

    /** A user's MFA devices; empty for a user without any (or that the estate does not hold now). */
    public List<MfaDevice> mfaDevices(String account, String userName) {
        AwsResource u = estate.find(account, AwsEstate.GLOBAL, AwsType.IAM_USER, userName);
        if (u == null || exposed(Kind.USER, u)) {
            return List.of();
        }
        return devices(plan.ids(), u);
    }

    /** Whether a bucket is public, a group open or a user without MFA (for the findings). */
    boolean exposedNow(AwsResource r) {
        return switch (r.type()) {
            case S3_BUCKET -> bucket(r).isPublic();
            case EC2_SECURITY_GROUP -> !securityGroup(r).adminPortsOpenToAnywhere().isEmpty();
            case IAM_USER -> exposed(Kind.USER, r);
            default -> false;
        };
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
