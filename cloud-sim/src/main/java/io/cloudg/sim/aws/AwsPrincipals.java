package io.cloudg.sim.aws;

import io.cloudg.sim.estate.AwsEstate;
import io.cloudg.sim.estate.Ids;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Issues temporary credentials (STS AssumeRole) and maps access key ids back to accounts. */
public final class AwsPrincipals {
    /** Default management credentials; any unknown key id means the management account as well. */
    public static final String MANAGEMENT_KEY = "AKIASIMMANAGEMENT001";
    public static final String MANAGEMENT_SECRET = "cloudg-sim-management-secret";

    private record Session(AwsPrincipal principal, String secret, String token, Instant expires) {
    }

    private final AwsEstate estate;
    private final Ids ids;
    private final AwsPrincipal management;
    private final ConcurrentHashMap<String, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicLong issued = new AtomicLong();

    public AwsPrincipals(AwsEstate estate, long seed) {
        this.estate = estate;
        this.ids = new Ids(seed ^ 0x7E57L);
        String mgmt = estate.management().id();
        this.management = new AwsPrincipal(mgmt, "arn:aws:iam::" + mgmt + ":user/cloudg-sim",
            "AIDA" + ids.upperAlnum("principal/management", 17), true);
    }

    public AwsCredentials managementCredentials() {
        return new AwsCredentials(MANAGEMENT_KEY, MANAGEMENT_SECRET, null, management.account());
    }

    /** The caller behind an access key id (null or unknown: the management account). */
    public AwsPrincipal resolve(String accessKeyId) {
        if (accessKeyId != null && accessKeyId.startsWith("ASIA")) {
            Session s = sessions.get(accessKeyId);
            if (s != null) {
                return s.principal;
            }
        }
        return management;
    }

    /** Issued credentials for an assumed role. */
    public record Issued(String accessKeyId, String secretAccessKey, String sessionToken, Instant expiration,
                         AwsPrincipal principal, String assumedRoleId) {
    }

    /** Issues credentials acting as {@code roleName} in {@code account}. */
    public Issued assume(String account, String roleName, String sessionName, Instant expires) {
        long n = issued.incrementAndGet();
        String salt = "session/" + n;
        String akid = "ASIA" + ids.upperAlnum(salt + "/key", 16);
        while (sessions.containsKey(akid)) {
            akid = "ASIA" + ids.upperAlnum(salt + "/key/" + issued.incrementAndGet(), 16);
        }
        String roleId = "AROA" + ids.upperAlnum("role/" + account + "/" + roleName, 17);
        AwsPrincipal p = new AwsPrincipal(account, "arn:aws:sts::" + account + ":assumed-role/" + roleName + "/" + sessionName,
            roleId + ":" + sessionName, account.equals(estate.management().id()));
        Session s = new Session(p, ids.lowerAlnum(salt + "/secret", 40), ids.lowerAlnum(salt + "/token", 96), expires);
        sessions.put(akid, s);
        return new Issued(akid, s.secret, s.token, expires, p, roleId + ":" + sessionName);
    }
}
