package io.cloudg.mcp.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.inventory.Asset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The checks on assets shaped as the AWS collectors store them. */
class ScannerTest {
    static Asset bucket(String name, Map<String, Object> attributes) {
        return new Asset("aws", "111111111111", "us-east-1", "s3", "AWS::S3::Bucket", name, name, "arn:aws:s3:::" + name,
                Map.of(), attributes);
    }

    static Map<String, Object> exposure(boolean policyPublic, boolean restrict, boolean aclPublic, boolean ignoreAcls) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("block_public_acls", false);
        m.put("ignore_public_acls", ignoreAcls);
        m.put("block_public_policy", false);
        m.put("restrict_public_buckets", restrict);
        m.put("policy_public", policyPublic);
        m.put("acl_public", aclPublic);
        return m;
    }

    static Asset group(String id, List<Map<String, Object>> rules) {
        return new Asset("aws", "222222222222", "eu-west-1", "ec2", "AWS::EC2::SecurityGroup", id, "web", null, Map.of(),
                Map.of("ingress", rules));
    }

    static Map<String, Object> rule(String protocol, Integer from, Integer to, List<String> cidrs, List<String> v6) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("protocol", protocol);
        r.put("from_port", from);
        r.put("to_port", to);
        r.put("cidrs", cidrs);
        r.put("ipv6_cidrs", v6);
        return r;
    }

    static Asset user(String name, Map<String, Object> attributes) {
        return new Asset("aws", "333333333333", "global", "iam", "AWS::IAM::User", name, name, null, Map.of(), attributes);
    }

    static Verdict verdict(Check c, Asset a) {
        return c.evaluate(a);
    }

    @Test
    void s3BucketsArePublicThroughAnUnrestrictedPolicyOrAnUnignoredAcl() {
        Check c = new Checks.S3PublicBucket();
        assertThat(verdict(c, bucket("open-policy", exposure(true, false, false, false))).detail())
                .isEqualTo("bucket open-policy is public: its bucket policy grants public access and Block Public Access "
                        + "does not restrict it");
        assertThat(verdict(c, bucket("restricted", exposure(true, true, false, false)))).isEqualTo(Verdict.PASS);
        assertThat(verdict(c, bucket("open-acl", exposure(false, false, true, false))).outcome()).isEqualTo(Verdict.Outcome.FAIL);
        assertThat(verdict(c, bucket("ignored-acl", exposure(false, false, true, true)))).isEqualTo(Verdict.PASS);
        assertThat(verdict(c, bucket("private", exposure(false, false, false, false)))).isEqualTo(Verdict.PASS);
    }

    @Test
    void anUnreadableBucketIsUnknownNotPrivate() {
        Check c = new Checks.S3PublicBucket();
        Verdict v = verdict(c, bucket("b", Map.of("detail_errors", List.of("GetBucketPolicyStatus: AccessDenied"),
                "acl_public", false, "block_public_acls", false, "ignore_public_acls", false, "block_public_policy", false,
                "restrict_public_buckets", false)));
        assertThat(v.outcome()).isEqualTo(Verdict.Outcome.UNKNOWN);
        assertThat(v.detail()).isEqualTo("attribute(s) policy_public not collected (GetBucketPolicyStatus: AccessDenied)");
        Map<String, Object> aclOnly = exposure(false, false, true, false);
        aclOnly.remove("policy_public");
        assertThat(verdict(c, bucket("b", aclOnly)).outcome()).as("a known public path decides").isEqualTo(Verdict.Outcome.FAIL);
        assertThat(verdict(c, bucket("old", Map.of())).detail()).contains("collected by an older cloudg");
    }

    @Test
    void securityGroupsOpenToTheWorldOnSshOrRdpFail() {
        Check c = new Checks.SecurityGroupAdminPortOpen();
        List<String> world = List.of("0.0.0.0/0");
        assertThat(verdict(c, group("sg-1", List.of(rule("tcp", 22, 22, world, List.of())))).detail())
                .isEqualTo("security group sg-1 (web): port 22 (SSH) open to 0.0.0.0/0");
        assertThat(verdict(c, group("sg-2", List.of(rule("-1", null, null, world, List.of())))).detail())
                .isEqualTo("security group sg-2 (web): port 22 (SSH) open to 0.0.0.0/0 (all protocols); "
                        + "port 3389 (RDP) open to 0.0.0.0/0 (all protocols)");
        assertThat(verdict(c, group("sg-3", List.of(rule("tcp", 0, 65535, List.of(), List.of("::/0"))))).outcome())
                .isEqualTo(Verdict.Outcome.FAIL);
        assertThat(verdict(c, group("sg-4", List.of(rule("6", 3389, 3389, world, List.of())))).detail()).contains("port 3389 (RDP)");
        assertThat(verdict(c, group("sg-5", List.of(rule("tcp", 443, 443, world, List.of()))))).isEqualTo(Verdict.PASS);
        assertThat(verdict(c, group("sg-6", List.of(rule("tcp", 22, 22, List.of("10.0.0.0/8"), List.of()))))).isEqualTo(Verdict.PASS);
        assertThat(verdict(c, group("sg-7", List.of(rule("udp", 0, 65535, world, List.of()))))).isEqualTo(Verdict.PASS);
        assertThat(verdict(c, group("sg-8", List.of()))).as("no inbound rule").isEqualTo(Verdict.PASS);
        assertThat(verdict(c, new Asset("aws", "2", "r", "ec2", "AWS::EC2::SecurityGroup", "sg-9", null, null, null, null))
                .outcome()).isEqualTo(Verdict.Outcome.UNKNOWN);
    }

    @Test
    void iamUsersWithoutAnMfaDeviceFail() {
        Check c = new Checks.IamUserWithoutMfa();
        assertThat(verdict(c, user("bob", Map.of("mfa_devices", 0))).detail())
                .isEqualTo("IAM user bob in account 333333333333 has no MFA device");
        assertThat(verdict(c, user("ann", Map.of("mfa_devices", 1)))).isEqualTo(Verdict.PASS);
        assertThat(verdict(c, user("eve", Map.of("detail_errors", List.of("ListMFADevices: AccessDenied")))).detail())
                .isEqualTo("attribute(s) mfa_devices not collected (ListMFADevices: AccessDenied)");
    }

    @Test
    void theScannerCountsEveryCheckAndNamesEachFailingAsset() {
        ScanReport r = Scanner.builtIn().scan(Stream.of(
                bucket("open", exposure(true, false, false, false)),
                bucket("closed", exposure(false, false, false, false)),
                bucket("unknown", Map.of()),
                group("sg-1", List.of(rule("tcp", 22, 22, List.of("0.0.0.0/0"), List.of()))),
                user("bob", Map.of("mfa_devices", 0)),
                new Asset("aws", "1", "us-east-1", "ec2", "AWS::EC2::VPC", "vpc-1", null, null, null, null)));
        assertThat(r.findings()).extracting(Finding::check, Finding::id, Finding::accountId).containsExactly(
                org.assertj.core.groups.Tuple.tuple("s3_bucket_public", "open", "111111111111"),
                org.assertj.core.groups.Tuple.tuple("security_group_admin_port_open", "sg-1", "222222222222"),
                org.assertj.core.groups.Tuple.tuple("iam_user_without_mfa", "bob", "333333333333"));
        assertThat(r.findings().get(0).arn()).isEqualTo("arn:aws:s3:::open");
        CheckSummary s3 = r.checks().get(0);
        assertThat(s3.id()).isEqualTo("s3_bucket_public");
        assertThat(s3.evaluated()).isEqualTo(2);
        assertThat(s3.failed()).isEqualTo(1);
        assertThat(s3.notEvaluated()).isEqualTo(1);
        assertThat(s3.notEvaluatedReasons()).hasSize(1);
        assertThat(Checks.collectors()).containsExactly("s3_buckets", "security_groups", "iam_users");
    }
}
