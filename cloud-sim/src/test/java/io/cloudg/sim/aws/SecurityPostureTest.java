package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.estate.Findings;
import io.cloudg.sim.Http;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.SecuritySpec;
import io.cloudg.sim.estate.AwsAccount;
import io.cloudg.sim.estate.AwsSecurity;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeSecurityGroupsResponse;
import software.amazon.awssdk.services.ec2.model.IpPermission;
import software.amazon.awssdk.services.ec2.model.IpRange;
import software.amazon.awssdk.services.ec2.model.Ipv6Range;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.ec2.model.UserIdGroupPair;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.IamException;
import software.amazon.awssdk.services.iam.model.ListMfaDevicesResponse;
import software.amazon.awssdk.services.iam.model.MFADevice;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.iam.model.User;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.PublicAccessBlockConfiguration;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Type;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * What the security checks read, through the real clients in every account and region: security group
 * rules, S3's Block Public Access / policy status / ACL (a client of us-east-1 with cross-region access, as
 * cloudg's), IAM's MFA devices, each read the way AWS defines it and compared with the findings truth. Two
 * estates: the default one (which must hold every kind of finding) and a wider one whose listings take
 * several pages.
 */
class SecurityPostureTest {
    static final List<String> REGIONS = List.of("us-east-1", "eu-west-1");
    static final Set<String> EVERYONE = Set.of("http://acs.amazonaws.com/groups/global/AllUsers",
        "http://acs.amazonaws.com/groups/global/AuthenticatedUsers");
    static CloudSim defaults;
    static CloudSim wide;

    @BeforeAll
    static void start() {
        defaults = CloudSim.start(SimOptions.builder().estate(EstateSpec.defaultEstate()).build());
        wide = CloudSim.start(SimOptions.builder().seed(23).estate(EstateSpec.fromYaml("""
            aws:
              accounts: 2
              regions: [us-east-1, eu-west-1]
              resources: {AWS::EC2::VPC: 2, AWS::EC2::SecurityGroup: 13, AWS::S3::Bucket: 14, AWS::IAM::User: 9}
              security: {public_bucket_share: 0.3, open_security_group_share: 0.4, users_without_mfa_share: 0.2}
            """)).build());
    }

    @AfterAll
    static void stop() {
        defaults.close();
        wide.close();
    }

    /** What one pass over an estate saw. */
    private static final class Seen {
        final Set<String> publicBuckets = new TreeSet<>();
        final Map<String, Set<Integer>> openGroups = new TreeMap<>();
        final Set<String> usersWithoutMfa = new TreeSet<>();
        int securityGroupPages;
        int mfaPages;
        int mfaListings;
        final Set<String> shapes = new TreeSet<>();
    }

    @Test
    void theDefaultEstateHoldsEveryKindOfFindingAndTheClientsReadExactlyThem() {
        Findings f = defaults.findings();
        assertThat(f.publicBuckets()).isNotEmpty();
        assertThat(f.openSecurityGroups()).isNotEmpty();
        assertThat(f.usersWithoutMfa()).isNotEmpty();
        Seen seen = readEverything(defaults, 5, 1);
        assertAgrees(defaults, seen);
    }

    @Test
    void aWiderEstatePagesAndHoldsItsSharesIncludingNearMisses() {
        Seen seen = readEverything(wide, 5, 1);
        assertAgrees(wide, seen);
        int buckets = 2 * 14;
        int groups = 2 * 2 * 13;
        int users = 2 * 9;
        assertThat(seen.publicBuckets).hasSize(SecuritySpec.selected(0.3, buckets));
        assertThat(seen.openGroups).hasSize(SecuritySpec.selected(0.4, groups));
        assertThat(seen.usersWithoutMfa).hasSize(SecuritySpec.selected(0.2, users));
        assertThat(seen.securityGroupPages).as("13 groups per region, 5 a page").isGreaterThanOrEqualTo(2 * 2 * 3);
        assertThat(seen.mfaPages).as("some user has two devices, read one a page").isGreaterThan(seen.mfaListings);
        // safe buckets and groups that look exposed but are not
        assertThat(seen.shapes).contains("public policy restricted by Block Public Access",
            "AllUsers ACL ignored by Block Public Access", "no Block Public Access configured", "no bucket policy",
            "world-open non-admin port", "admin port open to a private range");
    }

    /** Reads every group, bucket and user of every account through the SDK clients and their paginators. */
    private static Seen readEverything(CloudSim sim, int groupPage, int mfaPage) {
        Seen seen = new Seen();
        for (AwsAccount a : sim.estate().aws().accounts()) {
            AwsCredentialsProvider creds = a.management() ? AwsClients.management() : AwsClients.of(assume(sim, a.id()));
            for (String region : REGIONS) {
                try (Ec2Client ec2 = AwsClients.aimShared(Ec2Client.builder(), sim, Region.of(region), creds).build()) {
                    for (DescribeSecurityGroupsResponse page : ec2.describeSecurityGroupsPaginator(b -> b.maxResults(groupPage))) {
                        seen.securityGroupPages++;
                        for (SecurityGroup g : page.securityGroups()) {
                            assertRulesAsTheEstateHoldsThem(sim, a.id(), g);
                            Set<Integer> open = openAdminPorts(g, seen.shapes);
                            if (!open.isEmpty()) {
                                seen.openGroups.put(a.id() + "/" + region + "/" + g.groupId(), open);
                            }
                        }
                    }
                }
            }
            try (S3Client s3 = AwsClients.aimShared(S3Client.builder(), sim, Region.US_EAST_1, creds).forcePathStyle(true)
                .crossRegionAccessEnabled(true).build()) {
                String owner = s3.listBuckets().owner().id();
                for (Bucket b : s3.listBucketsPaginator().buckets()) {
                    if (isPublic(s3, b.name(), owner, seen.shapes)) {
                        seen.publicBuckets.add(a.id() + "/" + b.bucketRegion() + "/" + b.name());
                    }
                }
            }
            try (IamClient iam = AwsClients.aimShared(IamClient.builder(), sim, Region.AWS_GLOBAL, creds).build()) {
                for (User u : iam.listUsersPaginator().users()) {
                    List<MFADevice> devices = new ArrayList<>();
                    seen.mfaListings++;
                    for (ListMfaDevicesResponse page : iam.listMFADevicesPaginator(b -> b.userName(u.userName()).maxItems(mfaPage))) {
                        seen.mfaPages++;
                        devices.addAll(page.mfaDevices());
                    }
                    List<String> serials = devices.stream().map(MFADevice::serialNumber).toList();
                    assertThat(serials).isEqualTo(sim.estate().aws().security().mfaDevices(a.id(), u.userName()).stream()
                        .map(AwsSecurity.MfaDevice::serialNumber).toList());
                    assertThat(devices).allSatisfy(d -> {
                        assertThat(d.userName()).isEqualTo(u.userName());
                        assertThat(d.enableDate()).isAfter(u.createDate());
                    });
                    if (devices.isEmpty()) {
                        seen.usersWithoutMfa.add(a.id() + "/" + u.userName());
                    }
                }
            }
        }
        return seen;
    }

    private static void assertAgrees(CloudSim sim, Seen seen) {
        Findings f = sim.findings();
        Set<String> buckets = new TreeSet<>();
        f.publicBuckets().forEach(b -> buckets.add(b.account() + "/" + b.region() + "/" + b.bucket()));
        Map<String, Set<Integer>> groups = new TreeMap<>();
        f.openSecurityGroups().forEach(g -> groups.put(g.account() + "/" + g.region() + "/" + g.groupId(),
            new TreeSet<>(g.ports())));
        Set<String> users = new TreeSet<>();
        f.usersWithoutMfa().forEach(u -> users.add(u.account() + "/" + u.userName()));
        assertThat(seen.publicBuckets).isEqualTo(buckets);
        assertThat(seen.openGroups).isEqualTo(groups);
        assertThat(seen.usersWithoutMfa).isEqualTo(users);
    }

    /** The rules on the wire are exactly the estate's, ingress and egress. */
    private static void assertRulesAsTheEstateHoldsThem(CloudSim sim, String account, SecurityGroup g) {
        AwsSecurity.SecurityGroup held = sim.estate().aws().security()
            .securityGroup(sim.estate().aws().find(io.cloudg.sim.core.AwsType.EC2_SECURITY_GROUP, g.groupId()));
        assertThat(g.ipPermissions().stream().map(p -> rule(account, p)).toList()).isEqualTo(held.ingress());
        assertThat(g.ipPermissionsEgress().stream().map(p -> rule(account, p)).toList()).isEqualTo(held.egress());
        assertThat(g.ipPermissionsEgress()).isNotEmpty();
    }

    private static AwsSecurity.Rule rule(String account, IpPermission p) {
        assertThat(p.userIdGroupPairs()).allSatisfy(pair -> assertThat(pair.userId()).isEqualTo(account));
        String description = Stream.of(p.ipRanges().stream().map(IpRange::description),
            p.ipv6Ranges().stream().map(Ipv6Range::description),
            p.userIdGroupPairs().stream().map(UserIdGroupPair::description)).flatMap(x -> x).filter(Objects::nonNull)
            .findFirst().orElse(null);
        return new AwsSecurity.Rule(p.ipProtocol(), p.fromPort(), p.toPort(), p.ipRanges().stream().map(IpRange::cidrIp).toList(),
            p.ipv6Ranges().stream().map(Ipv6Range::cidrIpv6).toList(),
            p.userIdGroupPairs().stream().map(UserIdGroupPair::groupId).toList(), description);
    }

    /** TCP 22 and 3389 reachable from 0.0.0.0/0 or ::/0, read from the SDK objects. */
    private static Set<Integer> openAdminPorts(SecurityGroup g, Set<String> shapes) {
        Set<Integer> open = new TreeSet<>();
        for (IpPermission p : g.ipPermissions()) {
            boolean world = p.ipRanges().stream().anyMatch(r -> r.cidrIp().equals("0.0.0.0/0"))
                || p.ipv6Ranges().stream().anyMatch(r -> r.cidrIpv6().equals("::/0"));
            boolean all = p.ipProtocol().equals("-1");
            boolean tcp = p.ipProtocol().equals("tcp");
            for (int port : List.of(22, 3389)) {
                boolean covers = all || (tcp && p.fromPort() <= port && port <= p.toPort());
                if (world && covers) {
                    open.add(port);
                } else if (covers) {
                    shapes.add("admin port open to a private range");
                }
            }
            if (world && !all && open.isEmpty()) {
                shapes.add("world-open non-admin port");
            }
        }
        return open;
    }

    /**
     * Whether a bucket is public as AWS defines it, from its three answers: a public policy Block Public
     * Access does not restrict, or an ACL to everyone it does not ignore (no configuration: nothing blocked).
     */
    private static boolean isPublic(S3Client s3, String bucket, String owner, Set<String> shapes) {
        PublicAccessBlockConfiguration pab = orNull(() -> s3.getPublicAccessBlock(b -> b.bucket(bucket))
            .publicAccessBlockConfiguration(), "NoSuchPublicAccessBlockConfiguration");
        Boolean policyPublic = orNull(() -> s3.getBucketPolicyStatus(b -> b.bucket(bucket)).policyStatus().isPublic(),
            "NoSuchBucketPolicy");
        GetBucketAclResponse acl = s3.getBucketAcl(b -> b.bucket(bucket));
        assertThat(acl.owner().id()).isEqualTo(owner).hasSize(64);
        assertThat(acl.grants()).isNotEmpty();
        Grant first = acl.grants().get(0);
        assertThat(first.grantee().type()).isEqualTo(Type.CANONICAL_USER);
        assertThat(first.grantee().id()).isEqualTo(owner);
        assertThat(first.permissionAsString()).isEqualTo("FULL_CONTROL");
        assertThat(acl.grants().subList(1, acl.grants().size())).allSatisfy(g -> {
            assertThat(g.grantee().type()).isEqualTo(Type.GROUP);
            assertThat(g.grantee().uri()).startsWith("http://acs.amazonaws.com/groups/");
        });
        boolean aclToEveryone = acl.grants().stream().anyMatch(g -> g.grantee().uri() != null && EVERYONE.contains(g.grantee().uri()));
        boolean restrict = pab != null && pab.restrictPublicBuckets();
        boolean ignore = pab != null && pab.ignorePublicAcls();
        if (pab == null) {
            shapes.add("no Block Public Access configured");
        }
        if (policyPublic == null) {
            shapes.add("no bucket policy");
        }
        if (Boolean.TRUE.equals(policyPublic) && restrict) {
            shapes.add("public policy restricted by Block Public Access");
        }
        if (aclToEveryone && ignore) {
            shapes.add("AllUsers ACL ignored by Block Public Access");
        }
        return (Boolean.TRUE.equals(policyPublic) && !restrict) || (aclToEveryone && !ignore);
    }

    /** The call's answer, or null when S3 answers 404 {@code absentCode}. */
    private static <T> T orNull(Supplier<T> call, String absentCode) {
        try {
            return call.get();
        } catch (S3Exception e) {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(absentCode);
            assertThat(e.statusCode()).isEqualTo(404);
            return null;
        }
    }

    static Credentials assume(CloudSim sim, String account) {
        try (StsClient sts = AwsClients.aim(StsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            return sts.assumeRole(b -> b.roleArn("arn:aws:iam::" + account + ":role/OrganizationAccountAccessRole")
                .roleSessionName("cloudg-test")).credentials();
        }
    }

    @Test
    void aBucketOfAnotherRegionRedirectsAndCrossRegionAccessFollowsOnTheSameEndpoint() {
        String mgmt = wide.estate().aws().management().id();
        String far = wide.truth().select(x -> x.account().equals(mgmt) && x.type().equals("AWS::S3::Bucket")
            && x.region().equals("eu-west-1")).get(0).id();
        try (S3Client plain = AwsClients.aimNoRetry(S3Client.builder(), wide, Region.US_EAST_1, AwsClients.management())
            .forcePathStyle(true).build()) {
            assertThatThrownBy(() -> plain.getBucketAcl(b -> b.bucket(far))).isInstanceOfSatisfying(S3Exception.class, e -> {
                assertThat(e.statusCode()).isEqualTo(301);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("PermanentRedirect");
                assertThat(e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-bucket-region")).hasValue("eu-west-1");
            });
            // GetBucketLocation answers from any region, as in AWS
            assertThat(plain.getBucketLocation(b -> b.bucket(far)).locationConstraintAsString()).isEqualTo("eu-west-1");
        }
        long here = calls(wide, mgmt, "us-east-1");
        long there = calls(wide, mgmt, "eu-west-1");
        try (S3Client s3 = AwsClients.aimNoRetry(S3Client.builder(), wide, Region.US_EAST_1, AwsClients.management())
            .forcePathStyle(true).crossRegionAccessEnabled(true).build()) {
            assertThat(s3.getBucketAcl(b -> b.bucket(far)).owner().id())
                .isEqualTo(wide.estate().aws().security().canonicalUserId(mgmt));
            assertThat(s3.getBucketAcl(b -> b.bucket(far)).grants()).isNotEmpty();
        }
        // one redirected call, then two calls re-sent to the sim's one endpoint signed for the bucket's region
        assertThat(calls(wide, mgmt, "us-east-1")).isEqualTo(here + 1);
        assertThat(calls(wide, mgmt, "eu-west-1")).isEqualTo(there + 2);
    }

    /** S3 calls of an account charged to a region (the region the request was signed for). */
    private static long calls(CloudSim sim, String account, String region) {
        var b = sim.stats().bucket("aws/" + account + "/" + region + "/s3");
        return b == null ? 0 : b.calls();
    }

    @Test
    void bucketsThatAreMissingForeignOrUnconfiguredAnswerAsS3Does() {
        AwsAccount mgmt = wide.estate().aws().management();
        AwsAccount member = wide.estate().aws().accounts().get(1);
        AwsSecurity sec = wide.estate().aws().security();
        List<String> mine = wide.truth().select(x -> x.account().equals(mgmt.id()) && x.type().equals("AWS::S3::Bucket"))
            .stream().map(x -> x.id()).toList();
        String theirs = wide.truth().select(x -> x.account().equals(member.id()) && x.type().equals("AWS::S3::Bucket"))
            .get(0).id();
        String noBlock = mine.stream().filter(n -> sec.bucket(n).publicAccessBlock() == null).findFirst().orElseThrow();
        String noPolicy = mine.stream().filter(n -> sec.bucket(n).policyPublic() == null).findFirst().orElseThrow();
        try (S3Client s3 = AwsClients.aimNoRetry(S3Client.builder(), wide, Region.US_EAST_1, AwsClients.management())
            .forcePathStyle(true).crossRegionAccessEnabled(true).build()) {
            assertS3Error(() -> s3.getPublicAccessBlock(b -> b.bucket("no-such-bucket-anywhere")), 404, "NoSuchBucket");
            assertS3Error(() -> s3.getBucketAcl(b -> b.bucket(theirs)), 403, "AccessDenied");
            assertS3Error(() -> s3.getBucketPolicyStatus(b -> b.bucket(mine.get(0)).expectedBucketOwner(member.id())), 403,
                "AccessDenied");
            assertS3Error(() -> s3.getPublicAccessBlock(b -> b.bucket(noBlock)), 404, "NoSuchPublicAccessBlockConfiguration");
            assertS3Error(() -> s3.getBucketPolicyStatus(b -> b.bucket(noPolicy)), 404, "NoSuchBucketPolicy");
            assertThat(s3.getBucketAcl(b -> b.bucket(mine.get(0)).expectedBucketOwner(mgmt.id())).grants()).isNotEmpty();
        }
    }

    private static void assertS3Error(Runnable call, int status, String code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
        });
    }

    @Test
    void listMfaDevicesNamesItsUserOrTheCaller() {
        AwsAccount member = wide.estate().aws().accounts().get(1);
        try (IamClient iam = AwsClients.aimNoRetry(IamClient.builder(), wide, Region.AWS_GLOBAL, AwsClients.management())
            .build()) {
            assertThatThrownBy(() -> iam.listMFADevices(b -> b.userName("nobody"))).isInstanceOfSatisfying(
                NoSuchEntityException.class, e -> assertThat(e.statusCode()).isEqualTo(404));
            // the management key is an IAM user outside the estate, without devices
            assertThat(iam.listMFADevices().mfaDevices()).isEmpty();
            assertThatThrownBy(() -> iam.listMFADevices(b -> b.maxItems(0))).isInstanceOf(IamException.class);
        }
        try (IamClient iam = AwsClients.aimNoRetry(IamClient.builder(), wide, Region.AWS_GLOBAL,
            AwsClients.of(assume(wide, member.id()))).build()) {
            assertThatThrownBy(iam::listMFADevices).isInstanceOfSatisfying(IamException.class, e -> {
                assertThat(e.statusCode()).isEqualTo(400);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationError");
            });
        }
    }

    @Test
    void theFindingsAreServedAsJson() throws Exception {
        String body = Http.get(URI.create(defaults.awsEndpoint() + "/_sim/findings")).body();
        Findings served = new ObjectMapper().readValue(body, Findings.class);
        assertThat(served).isEqualTo(defaults.findings());
        assertThat(new HashSet<>(served.openSecurityGroups().get(0).ports())).isSubsetOf(22, 3389);
    }
}
