package io.cloudg.sim.config;

/**
 * How exposed the AWS estate is: what the security checks of cloudg look for. Each share is a fraction of
 * the estate's resources of one type, from 0 to 1; the estate holds exactly {@code share x count} of them
 * (rounded half up), chosen by the seed across every account and region. The rest are configured the
 * way careful teams configure them (Block Public Access, SSH from an office range only, MFA), with near
 * misses that must not be reported (a public policy that Block Public Access restricts, an
 * {@code AllUsers} grant it ignores, ICMP or port 2222 open to the world).
 *
 * <pre>
 * aws:
 *   security: {public_bucket_share: 0.25, open_security_group_share: 0.25, users_without_mfa_share: 0.5}
 * </pre>
 *
 * @param publicBucketShare      S3 buckets anyone can read: a public bucket policy Block Public Access does
 *                               not restrict, or an ACL grant to {@code AllUsers}/{@code AuthenticatedUsers}
 *                               it does not ignore
 * @param openSecurityGroupShare security groups letting {@code 0.0.0.0/0} or {@code ::/0} reach TCP port 22
 *                               (SSH) or 3389 (RDP)
 * @param usersWithoutMfaShare   IAM users without any MFA device
 */
public record SecuritySpec(double publicBucketShare, double openSecurityGroupShare, double usersWithoutMfaShare) {

    /** A quarter of the buckets and groups exposed, half the users without MFA. */
    public static final SecuritySpec DEFAULTS = new SecuritySpec(0.25, 0.25, 0.5);

    public SecuritySpec {
        check("publicBucketShare", publicBucketShare);
        check("openSecurityGroupShare", openSecurityGroupShare);
        check("usersWithoutMfaShare", usersWithoutMfaShare);
    }

    private static void check(String name, double v) {
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException(name + " must be from 0 to 1: " + v);
        }
    }

    /** How many of {@code count} resources a share selects: {@code share x count}, rounded half up. */
    public static int selected(double share, int count) {
        return (int) Math.min(count, Math.floor(share * count + 0.5));
    }

    static SecuritySpec read(SpecNode n, SecuritySpec dflt) {
        if (!n.present()) {
            return dflt;
        }
        n.onlyKeys("public_bucket_share", "open_security_group_share", "users_without_mfa_share");
        return new SecuritySpec(n.get("public_bucket_share").fraction(dflt.publicBucketShare(), false),
            n.get("open_security_group_share").fraction(dflt.openSecurityGroupShare(), false),
            n.get("users_without_mfa_share").fraction(dflt.usersWithoutMfaShare(), false));
    }
}
