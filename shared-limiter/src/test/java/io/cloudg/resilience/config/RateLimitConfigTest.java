package io.cloudg.resilience.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitConfigTest {

    @Test
    void builtInTableIsTheGuidesTable() {
        RateLimitConfig c = RateLimitConfig.defaults();
        ProviderLimits aws = c.provider("aws");
        assertThat(aws.leafLimit("s3", null)).isEqualTo(new LeafLimit(20, 40, 0.2, true));
        assertThat(aws.leafLimit("ec2", "DescribeSubnets")).isEqualTo(new LeafLimit(20, 100, 0.2, true));
        assertThat(aws.leafLimit("sts", null)).isEqualTo(new LeafLimit(50, 100, 0.2, true));
        assertThat(aws.leafLimit("lambda", null)).isEqualTo(new LeafLimit(15, 15, 0.2, true));
        assertThat(aws.leafLimit("iam", null)).isEqualTo(new LeafLimit(10, 40, 0.2, true));
        assertThat(aws.leafLimit("route53", null)).isEqualTo(new LeafLimit(5, 5, 0.2, true));
        assertThat(aws.leafLimit("resourcegroupstaggingapi", null)).isEqualTo(new LeafLimit(5, 10, 0.2, true));
        for (String s : List.of("organizations", "cloudformation", "cloudcontrol")) {
            assertThat(aws.leafLimit(s, null)).isEqualTo(new LeafLimit(5, 10, 0.2, true));
        }
        assertThat(aws.leafLimit("controltower", null)).isEqualTo(new LeafLimit(2, 5, 0.2, true));
        assertThat(aws.account()).isNull();
        assertThat(aws.global()).isNull();
        assertThat(aws.maxConcurrency()).isEqualTo(128);

        ProviderLimits azure = c.provider("azure");
        assertThat(azure.leafLimit("compute", null)).isEqualTo(new LeafLimit(15, 100, 0.1, true));
        assertThat(azure.leafLimit("network", null)).isEqualTo(new LeafLimit(30, 200, 0.1, true));
        assertThat(azure.leafLimit("storage", null)).isEqualTo(new LeafLimit(0.33, 20, 0.1, true));
        assertThat(azure.leafLimit("resourcegraph", null)).isEqualTo(new LeafLimit(2.85, 1, 0.1, true));
        assertThat(azure.account()).isEqualTo(new BucketLimit(20, 200));
        assertThat(azure.maxConcurrency()).isEqualTo(16);

        ProviderLimits gcp = c.provider("gcp");
        assertThat(gcp.leafLimit("compute", null)).isEqualTo(new LeafLimit(10, 20, 0.05, true));
        assertThat(gcp.leafLimit("cloudasset", "ListAssets")).isEqualTo(new LeafLimit(1.5, 10, 0.05, true));
        assertThat(gcp.leafLimit("cloudasset", "SearchAllResources")).isEqualTo(new LeafLimit(6, 20, 0.05, true));
        assertThat(gcp.leafLimit("cloudasset", "SearchAllIamPolicies")).isEqualTo(new LeafLimit(6, 20, 0.05, true));
        assertThat(gcp.leafLimit("cloudasset", "ListAssetsPerOrganization")).isEqualTo(new LeafLimit(13, 20, 0.05, true));
        assertThat(gcp.leafLimit("cloudasset", "SearchAllResourcesPerOrganization"))
                .isEqualTo(new LeafLimit(24, 40, 0.05, true));
        assertThat(gcp.maxConcurrency()).isEqualTo(16);

        for (ProviderLimits p : c.providers().values()) {
            assertThat(p.breakerThreshold()).isEqualTo(5);
            assertThat(p.breakerCooldownSeconds()).isEqualTo(60);
            assertThat(p.breakerMaxCooldownSeconds()).isEqualTo(600);
            assertThat(p.retryBudget()).isEqualTo(500);
            assertThat(p.maxRetries()).isEqualTo(8);
            assertThat(p.deadlineSeconds()).isEqualTo(900);
        }
    }

    @Test
    void guideExampleLoadsFromYaml() {
        RateLimitConfig c = RateLimitConfig.fromYaml(String.join("\n",
                "providers: [aws]",
                "ratelimit:",
                "  aws:",
                "    max_rps: 8",
                "    burst: 16",
                "    account_max_rps: 40",
                "    global_max_rps: 200",
                "    max_concurrency: 64",
                "    min_rps: 0.1",
                "    breaker_cooldown_seconds: 120",
                "    breaker_threshold: 10",
                "    retry_budget: 200",
                "    services:",
                "      ec2: {max_rps: 10, burst: 50}",
                "      iam: {max_rps: 4, burst: 8}",
                "      cloudcontrol: {max_rps: 2, burst: 4}",
                "      resourcegroupstaggingapi: {max_rps: 1, burst: 2}",
                "      ec2.DescribeImageAttribute: {max_rps: 5, burst: 10}",
                "      ssm: {max_rps: 10, burst: 20, per_operation: true}",
                "  azure:",
                "    account_max_rps: 10",
                "    services:",
                "      resourcegraph: {max_rps: 1, burst: 5}",
                "  gcp:",
                "    services:",
                "      cloudasset.ListAssets: {max_rps: 0.5, burst: 5}"));
        ProviderLimits aws = c.provider("aws");
        assertThat(aws.leafLimit("s3", null)).isEqualTo(new LeafLimit(8, 16, 0.1, true));
        assertThat(aws.leafLimit("sts", null)).as("untouched built-in entry").isEqualTo(new LeafLimit(50, 100, 0.1, true));
        assertThat(aws.leafLimit("ec2", "DescribeVpcs")).isEqualTo(new LeafLimit(10, 50, 0.1, true));
        assertThat(aws.leafLimit("ec2", "DescribeImageAttribute")).isEqualTo(new LeafLimit(5, 10, 0.1, true));
        assertThat(aws.isPerOperation("ssm", "GetParameter")).isTrue();
        assertThat(aws.isPerOperation("iam", "ListRoles")).isFalse();
        assertThat(aws.account()).isEqualTo(new BucketLimit(40, 80));
        assertThat(aws.global()).isEqualTo(new BucketLimit(200, 400));
        assertThat(aws.maxConcurrency()).isEqualTo(64);
        assertThat(aws.breakerCooldownSeconds()).isEqualTo(120);
        assertThat(aws.breakerThreshold()).isEqualTo(10);
        assertThat(aws.retryBudget()).isEqualTo(200);
        assertThat(c.provider("azure").account()).isEqualTo(new BucketLimit(10, 20));
        assertThat(c.provider("azure").leafLimit("resourcegraph", null)).isEqualTo(new LeafLimit(1, 5, 0.1, true));
        assertThat(c.provider("gcp").leafLimit("cloudasset", "ListAssets")).isEqualTo(new LeafLimit(0.5, 5, 0.05, true));
    }

    @Test
    void anOverrideReplacesTheWholeBuiltInEntry() {
        RateLimitConfig c = RateLimitConfig.fromYaml("ratelimit: {aws: {services: {ec2: {max_rps: 10}}}}");
        assertThat(c.provider("aws").leafLimit("ec2", "DescribeInstances").burst()).as("twice the rate").isEqualTo(20);
        assertThat(c.provider("aws").isPerOperation("ec2", "DescribeInstances")).as("ec2 stays per action").isTrue();
        RateLimitConfig slow = RateLimitConfig.fromYaml("ratelimit: {azure: {services: {storage: {max_rps: 0.2}}}}");
        assertThat(slow.provider("azure").leafLimit("storage", null).burst()).as("never below one").isEqualTo(1.0);
    }

    @Test
    void nullMeansBuiltIn() {
        assertThat(RateLimitConfig.fromYaml("ratelimit:").provider("aws").maxConcurrency()).isEqualTo(128);
        assertThat(RateLimitConfig.fromYaml("ratelimit: {aws: {max_rps: null, burst: ~}}").provider("aws")
                .leafLimit("s3", null)).isEqualTo(new LeafLimit(20, 40, 0.2, true));
        assertThat(RateLimitConfig.fromYaml("")).isSameAs(RateLimitConfig.defaults());
        assertThat(RateLimitConfig.fromYaml("other: 1").provider("gcp").maxConcurrency()).isEqualTo(16);
    }

    @Test
    void unknownKeysAreLoggedAndIgnored() {
        List<String> warnings = new ArrayList<>();
        RateLimitConfig c = RateLimitConfig.fromTree(yaml("aws: {max_rpss: 3, max_rps: 7, services: {iam: {bursts: 2}}}\n"
                + "oracle: {max_rps: 1}\nenabledd: true"), warnings);
        assertThat(warnings).containsExactlyInAnyOrder(
                "Unknown config key ratelimit.aws.max_rpss is ignored",
                "Unknown config key ratelimit.aws.services.iam.bursts is ignored",
                "Unknown config key ratelimit.oracle is ignored",
                "Unknown config key ratelimit.enabledd is ignored");
        assertThat(c.provider("aws").leafLimit("s3", null).ceilingRps()).isEqualTo(7);
    }

    /** Keys another module declared ({@link TestOnlyKeys}, as the MCP server declares its live_* keys) are its own. */
    @Test
    void keysAnotherModuleDeclaresAreNeitherBoundNorUnknown() {
        List<String> warnings = new ArrayList<>();
        RateLimitConfig c = RateLimitConfig.fromTree(yaml("other_module_key: 3\naws: {other_module_key: [x], max_rps: 7}\n"
                + "azure: {max_rpss: 1}"), warnings);
        assertThat(warnings).containsExactly("Unknown config key ratelimit.azure.max_rpss is ignored");
        assertThat(c.provider("aws").leafLimit("s3", null).ceilingRps()).isEqualTo(7);
        assertThat(RateLimitKeys.declared()).containsExactlyInAnyOrder("ratelimit.other_module_key",
                "ratelimit.<provider>.other_module_key");
    }

    /** Declared in this module's test resources: what a module reading keys of the ratelimit block does. */
    public static final class TestOnlyKeys implements RateLimitKeys {
        @Override
        public java.util.Set<String> keys() {
            return java.util.Set.of("other_module_key", PROVIDER + ".other_module_key");
        }
    }

    @Test
    void wrongTypesFailNamingKeyAndValue() {
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {max_rps: fast}}"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("ratelimit.aws.max_rps must be a number, but was \"fast\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {max_concurrency: 2.5}}"))
                .hasMessage("ratelimit.aws.max_concurrency must be an integer, but was 2.5");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {enabled: \"yes\"}"))
                .hasMessage("ratelimit.enabled must be true or false, but was \"yes\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {gcp: {services: {cloudasset.ListAssets: 3}}}"))
                .hasMessage("ratelimit.gcp.services.cloudasset.ListAssets must be a mapping like {max_rps: 5, burst: 10}, but was 3");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: [1, 2]"))
                .hasMessage("ratelimit must be a mapping, but was [1,2]");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: 5}"))
                .hasMessage("ratelimit.aws must be a mapping, but was 5");
    }

    @Test
    void outOfRangeValuesFailNamingKeyAndValue() {
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {max_rps: -1}}"))
                .hasMessage("ratelimit.aws.max_rps must be a positive number, but was -1");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {azure: {services: {network: {burst: 0}}}}"))
                .hasMessage("ratelimit.azure.services.network.burst must be a positive number, but was 0");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {max_concurrency: 0}}"))
                .hasMessage("ratelimit.aws.max_concurrency must be an integer >= 1, but was 0");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {retry_budget: -5}}"))
                .hasMessage("ratelimit.aws.retry_budget must be an integer >= 0, but was -5");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {services: {\"ec2.Describe.Vpcs\": {max_rps: 1}}}}"))
                .hasMessage("ratelimit.aws.services.ec2.Describe.Vpcs must be named <service> or <service>.<Operation>, but was \"ec2.Describe.Vpcs\"");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {breaker_cooldown_seconds: 900, breaker_max_cooldown_seconds: 600}}"))
                .hasMessage("ratelimit.aws.breaker_max_cooldown_seconds must be at least breaker_cooldown_seconds (900), but was 600");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {gcp: {global_burst: 5}}"))
                .hasMessage("ratelimit.gcp.global_burst: is set, but global_max_rps is not");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {aws: {max_rps: 1, burst: [}}"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("ratelimit: the YAML could not be read");
    }

    @Test
    void theJavaBuilderValidatesLikeYaml() {
        assertThatThrownBy(() -> RateLimitConfig.builder().aws(a -> a.maxRps(0.0)).build())
                .hasMessage("ratelimit.aws.max_rps must be a positive number, but was 0");
        assertThatThrownBy(() -> RateLimitConfig.builder().provider("oracle", p -> { }))
                .hasMessage("provider must be one of aws, azure, gcp, but was \"oracle\"");
        RateLimitConfig c = RateLimitConfig.builder().enabled(true)
                .aws(a -> a.accountMaxRps(40.0).service("iam", 4, 8)).build();
        assertThat(c.provider("aws").leafLimit("iam", null)).isEqualTo(new LeafLimit(4, 8, 0.2, true));
    }

    @Test
    void theCeilingOnCallsInFlightIsAProcessWideKeyValidatedByName() {
        assertThat(RateLimitConfig.defaults().maxCallsInFlight()).isEqualTo(RateLimitConfig.DEFAULT_MAX_CALLS_IN_FLIGHT)
                .isGreaterThanOrEqualTo(2000);
        assertThat(RateLimitConfig.fromYaml("ratelimit: {max_calls_in_flight: 300}").maxCallsInFlight()).isEqualTo(300);
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {max_calls_in_flight: 0}"))
                .hasMessage("ratelimit.max_calls_in_flight must be an integer >= 1, but was 0");
        assertThatThrownBy(() -> RateLimitConfig.fromYaml("ratelimit: {max_calls_in_flight: many}"))
                .hasMessage("ratelimit.max_calls_in_flight must be an integer, but was \"many\"");
        assertThatThrownBy(() -> RateLimitConfig.defaults().withMaxCallsInFlight(-5))
                .hasMessage("ratelimit.max_calls_in_flight must be an integer >= 1, but was -5");
        assertThat(RateLimitConfig.fromYaml("ratelimit: {max_calls_in_flight: 300}").withRedisUrl("redis://h:6379")
                .maxCallsInFlight()).as("kept with another backend").isEqualTo(300);
        assertThat(RateLimitConfig.documentedKeys()).contains("ratelimit.max_calls_in_flight");
    }

    @Test
    void enabledGloballyAndPerProvider() {
        RateLimitConfig off = RateLimitConfig.fromYaml("ratelimit: {enabled: false}");
        assertThat(off.enabled("aws")).isFalse();
        RateLimitConfig awsOff = RateLimitConfig.fromYaml("ratelimit: {aws: {enabled: false, adaptive: false}}");
        assertThat(awsOff.enabled("aws")).isFalse();
        assertThat(awsOff.enabled("gcp")).isTrue();
        assertThat(RateLimitConfig.fromYaml("ratelimit: {gcp: {adaptive: false}}").provider("gcp")
                .leafLimit("cloudasset", "ListAssets").adaptive()).isFalse();
    }

    private static com.fasterxml.jackson.databind.JsonNode yaml(String s) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                    .readTree(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void azureLeavesStopAtTheResourceProviderAndSplittingKeysAreWarnedAbout() {
        List<String> warnings = new ArrayList<>();
        RateLimitConfig c = RateLimitConfig.fromTree(yaml("azure: {per_operation: true, services: "
                + "{compute.ListVirtualMachines: {max_rps: 1}, network: {max_rps: 9, per_operation: true}}}"), warnings);
        String why = " has no effect: Azure throttles per subscription x resource provider, so its rate-limit buckets "
                + "stop at the resource provider";
        assertThat(warnings).containsExactlyInAnyOrder("ratelimit.azure.per_operation" + why,
                "ratelimit.azure.services.compute.ListVirtualMachines" + why,
                "ratelimit.azure.services.network.per_operation" + why);
        ProviderLimits azure = c.provider("azure");
        assertThat(azure.isPerOperation("compute", "ListVirtualMachines")).isFalse();
        assertThat(azure.isPerOperation("network", "ListVirtualNetworks")).isFalse();
        assertThat(azure.leafLimit("compute", "ListVirtualMachines").ceilingRps())
                .isEqualTo(azure.leafLimit("compute", null).ceilingRps());
        assertThat(azure.leafLimit("network", "ListVirtualNetworks").ceilingRps()).isEqualTo(9.0);
        RateLimitConfig aws = RateLimitConfig.fromTree(yaml("aws: {services: {iam.ListRoles: {max_rps: 1}}}"), warnings);
        assertThat(aws.provider("aws").isPerOperation("iam", "ListRoles")).as("AWS keys do split").isTrue();
    }
}
