package io.cloudg.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.CloudGConfig;
import io.cloudg.resilience.config.ConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Organization scoping and the member role: {@code aws.organizational_units}, {@code exclude_*},
 * {@code external_id}, {@code role_session_name}, role paths. Each wrong value names its key and the value.
 */
class AwsOrganizationSettingsTest {
    @Test
    void scopingAndMemberRoleKeysLoad() {
        CloudGConfig c = CloudGConfig.fromYaml("""
                aws:
                  org: true
                  organizational_units: [Root/Prod, ou-ab12-3k9x0q2w]
                  exclude_organizational_units: Prod/Sandbox
                  exclude_accounts: ["111122223333"]
                  exclude_regions: [ap-east-1, me-south-1]
                  role_name: /audit/cloudg/Reader
                  external_id: "o-abc:cloudg"
                  role_session_name: cloudg-nightly
                """);
        AwsSettings a = c.aws();
        assertThat(a.organizationalUnits()).containsExactly("Root/Prod", "ou-ab12-3k9x0q2w");
        assertThat(a.excludeOrganizationalUnits()).containsExactly("Prod/Sandbox");
        assertThat(a.excludeAccounts()).containsExactly("111122223333");
        assertThat(a.excludeRegions()).containsExactly("ap-east-1", "me-south-1");
        assertThat(a.roleName()).as("a leading slash of the path is dropped").isEqualTo("audit/cloudg/Reader");
        assertThat(a.externalId()).isEqualTo("o-abc:cloudg");
        assertThat(a.roleSessionName()).isEqualTo("cloudg-nightly");
        assertThat(a.scopedByUnits()).isTrue();
        assertThat(c.warnings()).isEmpty();
    }

    @Test
    void defaultsScopeNothingAndUseTheCloudgSession() {
        AwsSettings a = CloudGConfig.fromYaml("aws: {}").aws();
        assertThat(a.organizationalUnits()).isEmpty();
        assertThat(a.excludeAccounts()).isEmpty();
        assertThat(a.excludeRegions()).isEmpty();
        assertThat(a.externalId()).isNull();
        assertThat(a.roleSessionName()).isEqualTo("cloudg");
        assertThat(a.scopedByUnits()).isFalse();
    }

    @Test
    void wrongValuesNameTheKeyAndTheValue() {
        bad("aws: {organizational_units: ['Prod//Web']}", "aws.organizational_units entry", "Prod//Web");
        bad("aws: {exclude_organizational_units: ['']}", "aws.exclude_organizational_units", "");
        bad("aws: {exclude_accounts: ['12345']}", "aws.exclude_accounts entry", "12345");
        bad("aws: {exclude_regions: [moon-1]}", "aws.exclude_regions entry", "moon-1");
        bad("aws: {role_name: 'bad role'}", "aws.role_name", "bad role");
        bad("aws: {external_id: 'x'}", "aws.external_id", "x");
        bad("aws: {role_session_name: 'has space'}", "aws.role_session_name", "has space");
    }

    @Test
    void theCommandLinesExclusionsAreCheckedToo() {
        assertThatThrownBy(() -> AwsSettings.DEFAULTS.withExclusions(List.of("12"), List.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aws.exclude_accounts entry").hasMessageContaining("12");
        assertThatThrownBy(() -> AwsSettings.DEFAULTS.withExclusions(List.of(), List.of("everywhere")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("aws.exclude_regions entry")
                .hasMessageContaining("everywhere");
        AwsSettings a = AwsSettings.DEFAULTS.withExclusions(List.of("111122223333"), List.of("eu-west-1"));
        assertThat(a.excludeAccounts()).containsExactly("111122223333");
        assertThat(a.excludeRegions()).containsExactly("eu-west-1");
        assertThat(a.withOrg(true).excludeRegions()).as("other with... methods keep the rest").containsExactly("eu-west-1");
    }

    private static void bad(String yaml, String key, String value) {
        assertThatThrownBy(() -> CloudGConfig.fromYaml(yaml)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(key).hasMessageContaining(value);
    }
}
