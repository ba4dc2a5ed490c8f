package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.IpPermission;
import software.amazon.awssdk.services.ec2.model.IpRange;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;

/** The catalog as data: it loads, its selectors, its derived attributes, and the permissions generated from it. */
class AwsCatalogTest {
    @Test
    void theCatalogLoadsWithAtLeast133RegionalCollectorsEachNamedOnce() {
        List<AwsCollector> all = AwsCatalog.all();
        assertThat(all.stream().map(AwsCollector::name).distinct().count()).isEqualTo(all.size());
        assertThat(all.stream().filter(c -> !c.global() && !c.managementOnly()).count()).isGreaterThanOrEqualTo(133);
        assertThat(AwsCatalog.named("s3_buckets").operations()).containsExactly("ListBuckets", "GetBucketLocation",
                "GetPublicAccessBlock", "GetBucketPolicyStatus", "GetBucketAcl", "GetBucketPolicy", "GetBucketEncryption",
                "GetBucketVersioning", "GetBucketLogging");
        assertThat(AwsCatalog.named("s3_buckets").permissions()).contains("s3:ListAllMyBuckets",
                "s3:GetBucketPublicAccessBlock", "s3:GetEncryptionConfiguration");
        assertThat(AwsCatalog.named("ecs_services").operations()).containsExactly("ListClusters", "ListServices",
                "DescribeServices");
    }

    @Test
    void selectorsPickByNameServiceAndGlob() {
        assertThat(names(AwsCatalog.select(List.of("vpc"), List.of()))).containsExactly("vpc");
        assertThat(names(AwsCatalog.select(List.of("iam"), List.of()))).allMatch(n -> n.startsWith("iam_")).hasSizeGreaterThan(5);
        assertThat(names(AwsCatalog.select(List.of("iam.*"), List.of()))).isEqualTo(names(AwsCatalog.select(List.of("iam"), List.of())));
        assertThat(names(AwsCatalog.select(List.of("rds_*"), List.of("rds_proxies")))).contains("rds_instances")
                .doesNotContain("rds_proxies", "vpc");
        assertThat(names(AwsCatalog.select(List.of(), List.of("ec2")))).doesNotContain("instances", "vpc").contains("s3_buckets");
        assertThat(AwsCatalog.selected("tagging", "resourcegroupstaggingapi", List.of("ec2"), List.of())).isFalse();
        assertThat(AwsCatalog.selected("tagging", "resourcegroupstaggingapi", List.of("tagging"), List.of())).isTrue();
    }

    @Test
    void aSelectorThatPicksNothingIsRefusedNamingKeyAndValue() {
        assertThatThrownBy(() -> AwsCatalog.select(List.of("nosuch"), List.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("aws.collectors entry").hasMessageContaining("nosuch");
        assertThatThrownBy(() -> AwsCatalog.select(List.of(), List.of("iam_nothing_*"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("aws.exclude_collectors entry").hasMessageContaining("iam_nothing_*");
        assertThatThrownBy(() -> AwsCatalog.validate("aws.collectors", "EC2!")).hasMessageContaining("EC2!");
    }

    @Test
    void derivedAttributesReadTheSdkAnswersGenerically() {
        SecurityGroup sg = SecurityGroup.builder().groupId("sg-1").ipPermissions(IpPermission.builder().ipProtocol("tcp")
                .fromPort(22).toPort(22).ipRanges(IpRange.builder().cidrIp("0.0.0.0/0").build()).build()).build();
        Object ingress = Derive.parse(Map.of("each", "IpPermissions", "fields", Map.of("protocol", "IpProtocol",
                "from_port", "FromPort", "cidrs", "list(IpRanges.CidrIp)")), "test").eval(sg);
        assertThat(ingress).isEqualTo(List.of(Map.of("protocol", "tcp", "from_port", 22, "cidrs", List.of("0.0.0.0/0"))));
        GetBucketAclResponse acl = GetBucketAclResponse.builder().grants(Grant.builder().grantee(Grantee.builder()
                .uri("http://acs.amazonaws.com/groups/global/AllUsers").build()).permission("READ").build()).build();
        assertThat(Derive.parse("any(Grants.Grantee.URI in ['x', 'http://acs.amazonaws.com/groups/global/AllUsers'])", "t")
                .eval(acl)).isEqualTo(true);
        assertThat(Derive.parse("any(Grants.Grantee.URI == 'x')", "t").eval(acl)).isEqualTo(false);
        assertThat(Derive.parse("count(Grants)", "t").eval(acl)).isEqualTo(1);
        assertThat(Derive.parse("Grants.Permission", "t").eval(acl)).isEqualTo("READ");
        assertThatThrownBy(() -> Derive.parse("any(Grants.Grantee.URI ~ 'x')", "collector c derive d"))
                .hasMessageContaining("collector c derive d");
    }

    @Test
    void theFullConfigurationIsTheSdkObjectSerializedGenerically() {
        SecurityGroup sg = SecurityGroup.builder().groupId("sg-1").groupName("web").ipPermissions(IpPermission.builder()
                .ipProtocol("-1").build()).build();
        assertThat(SdkModel.serialize(sg)).isEqualTo(Map.of("GroupName", "web", "GroupId", "sg-1",
                "IpPermissions", List.of(Map.of("IpProtocol", "-1"))));
    }

    @Test
    void theTaggingSweepSkipsEveryArnTypeTheCollectorsList() {
        Set<String> covered = AwsCatalog.coveredArnTypes();
        assertThat(covered).contains("ec2:instance", "s3:", "sns:", "ecs:service", "elasticloadbalancing:listener",
                "wafv2:regional", "apigateway:");
        assertThat(AwsProvider.DEFAULT_CLOUDCONTROL_TYPES).doesNotContainAnyElementsOf(AwsCatalog.coveredTypes());
    }

    @Test
    void theCommittedPermissionsReferenceAndPolicyAreWhatTheCatalogGenerates() throws Exception {
        Path docs = Path.of("..", "docs");
        assertThat(Files.readString(docs.resolve("aws-permissions.md")))
                .as("docs/aws-permissions.md is stale: regenerate it with ./cloudg collectors --markdown > docs/aws-permissions.md")
                .isEqualTo(AwsPermissions.markdown());
        assertThat(Files.readString(docs.resolve("aws-readonly-policy.json")))
                .as("docs/aws-readonly-policy.json is stale: regenerate it with ./cloudg collectors --policy > docs/aws-readonly-policy.json")
                .isEqualTo(AwsPermissions.policyJson());
        assertThat(AwsPermissions.actions()).contains("sts:GetCallerIdentity", "tag:GetResources", "s3:ListAllMyBuckets")
                .allMatch(a -> a.matches("[a-z0-9-]+:[A-Za-z0-9]+"));
    }

    private static List<String> names(List<AwsCollector> cs) {
        return cs.stream().map(AwsCollector::name).collect(Collectors.toList());
    }
}
