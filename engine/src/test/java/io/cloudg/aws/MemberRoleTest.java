package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.config.AwsSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;

/** The role assumed in member accounts: its ARN in the partition of the region, its path, external id and session. */
class MemberRoleTest {
    @Test
    void partitionsComeFromTheSdksMetadata() {
        assertThat(AwsPartition.of("us-east-1")).isEqualTo("aws");
        assertThat(AwsPartition.of("eu-west-1")).isEqualTo("aws");
        assertThat(AwsPartition.of("us-gov-west-1")).isEqualTo("aws-us-gov");
        assertThat(AwsPartition.of("us-gov-east-1")).isEqualTo("aws-us-gov");
        assertThat(AwsPartition.of("cn-north-1")).isEqualTo("aws-cn");
        assertThat(AwsPartition.of("cn-northwest-1")).isEqualTo("aws-cn");
    }

    @Test
    void theAssumeRoleOfAGovCloudMapCarriesThePathTheExternalIdAndTheSessionName() {
        AwsSettings s = AwsSettings.DEFAULTS.withDefaultRegion("us-gov-west-1")
                .withMemberRole("audit/cloudg/Reader", "o-abc:cloudg", "cloudg-nightly");
        AssumeRoleRequest r = request(s, "111122223333");
        assertThat(r.roleArn()).isEqualTo("arn:aws-us-gov:iam::111122223333:role/audit/cloudg/Reader");
        assertThat(r.externalId()).isEqualTo("o-abc:cloudg");
        assertThat(r.roleSessionName()).isEqualTo("cloudg-nightly");
        assertThat(r.durationSeconds()).isEqualTo(3600);
    }

    @Test
    void chinaAndTheDefaults() {
        AssumeRoleRequest cn = request(AwsSettings.DEFAULTS.withDefaultRegion("cn-north-1"), "111122223333");
        assertThat(cn.roleArn()).isEqualTo("arn:aws-cn:iam::111122223333:role/OrganizationAccountAccessRole");
        AssumeRoleRequest d = request(AwsSettings.DEFAULTS, "111122223333");
        assertThat(d.roleArn()).isEqualTo("arn:aws:iam::111122223333:role/OrganizationAccountAccessRole");
        assertThat(d.roleSessionName()).isEqualTo("cloudg");
        assertThat(d.externalId()).isNull();
    }

    @Test
    void noArnOfTheCatalogOrTheProviderSpellsThePartitionOut() throws Exception {
        Pattern literal = Pattern.compile("arn:aws[:-]");
        Path root = Path.of("src", "main");
        List<Path> files;
        try (var walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().contains("io" + java.io.File.separator + "cloudg" + java.io.File.separator + "aws"))
                    .filter(Files::isRegularFile).toList();
        }
        assertThat(files).as("the catalog and the provider are read").anyMatch(p -> p.endsWith("collectors.yaml"))
                .anyMatch(p -> p.endsWith("AwsProvider.java"));
        for (Path p : files) {
            assertThat(literal.matcher(Files.readString(p)).find()).as(p + " builds ARNs for one partition only").isFalse();
        }
    }

    private static AssumeRoleRequest request(AwsSettings s, String account) {
        Governor g = Governor.builder().config(RateLimitConfig.defaults()).build();
        try (AwsClients clients = new AwsClients(s, g, 8)) {
            return new AwsProvider(s, clients).assumeRoleRequest(account);
        }
    }
}
