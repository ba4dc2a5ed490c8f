package io.cloudg.mcp.scan;

import io.cloudg.inventory.Asset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The built-in checks. */
public final class Checks {
    /** Ports whose exposure to the whole internet is an administrative door: SSH and RDP. */
    public static final Map<Integer, String> ADMIN_PORTS = Map.of(22, "SSH", 3389, "RDP");
    static final List<String> WORLD = List.of("0.0.0.0/0", "::/0");

    private Checks() {
    }

    public static List<Check> all() {
        return List.of(new S3PublicBucket(), new SecurityGroupAdminPortOpen(), new IamUserWithoutMfa());
    }

    /** The collectors whose assets the checks read (what {@code run_scanners} collects). */
    public static List<String> collectors() {
        return all().stream().map(Check::collector).distinct().toList();
    }

    static Boolean bool(Asset a, String key) {
        Object v = a.attributes().get(key);
        return v instanceof Boolean b ? b : null;
    }

    static String missing(Asset a, String... keys) {
        List<String> m = new ArrayList<>();
        for (String k : keys) {
            if (!a.attributes().containsKey(k)) {
                m.add(k);
            }
        }
        Object errors = a.attributes().get("detail_errors");
        return "attribute(s) " + String.join(", ", m) + " not collected"
                + (errors instanceof List<?> l && !l.isEmpty() ? " (" + String.join("; ", l.stream().map(String::valueOf).toList()) + ")"
                : " (collected by an older cloudg, or the per-item call failed)");
    }

    /**
     * An S3 bucket anyone can read: a public bucket policy that Block Public Access does not restrict, or an
     * ACL granting AllUsers / AuthenticatedUsers that Block Public Access does not ignore.
     */
    static final class S3PublicBucket implements Check {
        @Override
        public String id() {
            return "s3_bucket_public";
        }

        @Override
        public String title() {
            return "S3 bucket open to the public";
        }

        @Override
        public String severity() {
            return "high";
        }

        @Override
        public String assetType() {
            return "AWS::S3::Bucket";
        }

        @Override
        public String collector() {
            return "s3_buckets";
        }

        @Override
        public Verdict evaluate(Asset a) {
            Boolean policy = bool(a, "policy_public");
            Boolean restrict = bool(a, "restrict_public_buckets");
            Boolean acl = bool(a, "acl_public");
            Boolean ignore = bool(a, "ignore_public_acls");
            List<String> open = new ArrayList<>();
            boolean policyKnown = Boolean.FALSE.equals(policy) || Boolean.TRUE.equals(restrict);
            if (Boolean.TRUE.equals(policy) && Boolean.FALSE.equals(restrict)) {
                open.add("its bucket policy grants public access and Block Public Access does not restrict it");
                policyKnown = true;
            }
            boolean aclKnown = Boolean.FALSE.equals(acl) || Boolean.TRUE.equals(ignore);
            if (Boolean.TRUE.equals(acl) && Boolean.FALSE.equals(ignore)) {
                open.add("its ACL grants access to AllUsers or AuthenticatedUsers and Block Public Access does not ignore it");
                aclKnown = true;
            }
            if (!open.isEmpty()) {
                return Verdict.fail("bucket " + a.id() + " is public: " + String.join("; ", open));
            }
            if (policyKnown && aclKnown) {
                return Verdict.PASS;
            }
            return Verdict.unknown(missing(a, "policy_public", "acl_public", "restrict_public_buckets", "ignore_public_acls"));
        }
    }

    /** A security group letting 0.0.0.0/0 or ::/0 reach SSH (22) or RDP (3389). */
    static final class SecurityGroupAdminPortOpen implements Check {
        @Override
        public String id() {
            return "security_group_admin_port_open";
        }

        @Override
        public String title() {
            return "Security group open to 0.0.0.0/0 on an admin port (SSH 22, RDP 3389)";
        }

        @Override
        public String severity() {
            return "high";
        }

        @Override
        public String assetType() {
            return "AWS::EC2::SecurityGroup";
        }

        @Override
        public String collector() {
            return "security_groups";
        }

        @Override
        public Verdict evaluate(Asset a) {
            if (!(a.attributes().get("ingress") instanceof List<?> rules)) {
                return Verdict.unknown(missing(a, "ingress"));
            }
            List<String> open = new ArrayList<>();
            for (Object o : rules) {
                if (!(o instanceof Map<?, ?> r)) {
                    continue;
                }
                List<String> world = new ArrayList<>();
                for (String key : List.of("cidrs", "ipv6_cidrs")) {
                    if (r.get(key) instanceof List<?> cidrs) {
                        cidrs.stream().map(String::valueOf).filter(WORLD::contains).forEach(world::add);
                    }
                }
                if (world.isEmpty()) {
                    continue;
                }
                String protocol = String.valueOf(r.get("protocol"));
                boolean all = protocol.equals("-1");
                boolean tcp = protocol.equals("tcp") || protocol.equals("6");
                if (!all && !tcp) {
                    continue;
                }
                for (Map.Entry<Integer, String> p : new java.util.TreeMap<>(ADMIN_PORTS).entrySet()) {
                    if (all || covers(r.get("from_port"), r.get("to_port"), p.getKey())) {
                        open.add("port " + p.getKey() + " (" + p.getValue() + ") open to " + String.join(", ", world)
                                + (all ? " (all protocols)" : ""));
                    }
                }
            }
            return open.isEmpty() ? Verdict.PASS
                    : Verdict.fail("security group " + a.id() + (a.name() == null ? "" : " (" + a.name() + ")") + ": "
                    + String.join("; ", open));
        }

        private static boolean covers(Object from, Object to, int port) {
            if (!(from instanceof Number f) || !(to instanceof Number t)) {
                return false;
            }
            return (f.intValue() == -1 && t.intValue() == -1) || (f.intValue() <= port && port <= t.intValue());
        }
    }

    /** An IAM user without any MFA device. */
    static final class IamUserWithoutMfa implements Check {
        @Override
        public String id() {
            return "iam_user_without_mfa";
        }

        @Override
        public String title() {
            return "IAM user without MFA";
        }

        @Override
        public String severity() {
            return "medium";
        }

        @Override
        public String assetType() {
            return "AWS::IAM::User";
        }

        @Override
        public String collector() {
            return "iam_users";
        }

        @Override
        public Verdict evaluate(Asset a) {
            if (!(a.attributes().get("mfa_devices") instanceof Number n)) {
                return Verdict.unknown(missing(a, "mfa_devices"));
            }
            return n.intValue() > 0 ? Verdict.PASS
                    : Verdict.fail("IAM user " + a.id() + " in account " + a.accountId() + " has no MFA device");
        }
    }
}
