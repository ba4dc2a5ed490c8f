package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.config.AwsSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.config.StartupException;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An IAM Identity Center (SSO) profile as {@code aws.profile}: the SDK reads it through the {@code sso} and
 * {@code ssooidc} modules (without them it refuses the profile, asking for the module on the class path), and
 * a login that is missing or expired fails the start in one line that says what to run.
 */
class SsoProfileTest {
    @TempDir
    Path dir;

    @Test
    void anSsoProfileIsReadThroughTheSsoModulesAndAMissingLoginSaysWhatToRun() throws Exception {
        Path config = dir.resolve("config");
        Files.writeString(config, """
                [profile cloudg-sso]
                sso_session = corp
                sso_account_id = 111122223333
                sso_role_name = ReadOnly
                region = us-east-1

                [sso-session corp]
                sso_region = us-east-1
                sso_start_url = https://corp-cloudg-test.awsapps.com/start
                sso_registration_scopes = sso:account:access
                """);
        String before = System.getProperty("aws.configFile");
        System.setProperty("aws.configFile", config.toString());
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(EstateSpec.defaultEstate()).build())) {
            AwsSettings settings = AwsSettings.DEFAULTS.withEndpoint(sim.awsEndpoint()).withProfile("cloudg-sso");
            Governor g = Governor.builder().config(RateLimitConfig.defaults()).build();
            try (AwsClients clients = new AwsClients(settings, g, 8)) {
                AwsProvider p = new AwsProvider(settings, clients);
                Throwable sdk = org.assertj.core.api.Assertions.catchThrowable(() -> p.managementCredentials().resolveCredentials());
                assertThat(sdk).as("the SDK found its SSO support").isNotNull();
                assertThat(sdk.getMessage()).doesNotContain("must be on the class path");
                assertThatThrownBy(p::plan).isInstanceOf(StartupException.class)
                        .hasMessageContaining("SSO session of profile cloudg-sso")
                        .hasMessageContaining("aws sso login --profile cloudg-sso")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            }
        } finally {
            if (before == null) {
                System.clearProperty("aws.configFile");
            } else {
                System.setProperty("aws.configFile", before);
            }
        }
    }
}
