package io.cloudg.sim.estate;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The security findings the simulated AWS estate holds by construction: exactly what a correct scanner
 * reports against it (see {@link io.cloudg.sim.estate.AwsSecurity} for what each finding means, and
 * {@link io.cloudg.sim.config.SecuritySpec} for how many there are). Served as JSON at
 * {@code GET /_sim/findings}; every list is in estate order.
 *
 * @param publicBuckets      S3 buckets anyone can read
 * @param openSecurityGroups security groups letting anywhere reach SSH (22) or RDP (3389)
 * @param usersWithoutMfa    IAM users without an MFA device
 */
@JsonPropertyOrder({"public_buckets", "open_security_groups", "users_without_mfa"})
public record Findings(
    @JsonProperty("public_buckets") List<PublicBucket> publicBuckets,
    @JsonProperty("open_security_groups") List<OpenSecurityGroup> openSecurityGroups,
    @JsonProperty("users_without_mfa") List<UserWithoutMfa> usersWithoutMfa) {

    public Findings {
        publicBuckets = List.copyOf(publicBuckets);
        openSecurityGroups = List.copyOf(openSecurityGroups);
        usersWithoutMfa = List.copyOf(usersWithoutMfa);
    }

    /**
     * A public bucket.
     *
     * @param region    where it lives (its location constraint)
     * @param viaPolicy its bucket policy is public and Block Public Access does not restrict it
     * @param viaAcl    its ACL grants AllUsers or AuthenticatedUsers and Block Public Access does not ignore it
     */
    @JsonPropertyOrder({"account", "region", "bucket", "via_policy", "via_acl"})
    public record PublicBucket(@JsonProperty("account") String account, @JsonProperty("region") String region,
                               @JsonProperty("bucket") String bucket, @JsonProperty("via_policy") boolean viaPolicy,
                               @JsonProperty("via_acl") boolean viaAcl) {
    }

    /**
     * A security group open to {@code 0.0.0.0/0} or {@code ::/0} on admin ports.
     *
     * @param ports the admin ports open (22, 3389), ascending
     */
    @JsonPropertyOrder({"account", "region", "group_id", "group_name", "ports"})
    public record OpenSecurityGroup(@JsonProperty("account") String account, @JsonProperty("region") String region,
                                    @JsonProperty("group_id") String groupId, @JsonProperty("group_name") String groupName,
                                    @JsonProperty("ports") List<Integer> ports) {
        public OpenSecurityGroup {
            ports = List.copyOf(ports);
        }
    }

    /** An IAM user (a global resource) without any MFA device. */
    @JsonPropertyOrder({"account", "user_name"})
    public record UserWithoutMfa(@JsonProperty("account") String account, @JsonProperty("user_name") String userName) {
    }

    /** Names of the public buckets. */
    public Set<String> publicBucketNames() {
        return publicBuckets.stream().map(PublicBucket::bucket).collect(Collectors.toSet());
    }

    /** Ids of the open security groups. */
    public Set<String> openSecurityGroupIds() {
        return openSecurityGroups.stream().map(OpenSecurityGroup::groupId).collect(Collectors.toSet());
    }

    /** {@code account/user} of every user without MFA. */
    public Set<String> usersWithoutMfaKeys() {
        return usersWithoutMfa.stream().map(u -> u.account() + "/" + u.userName()).collect(Collectors.toSet());
    }
}
