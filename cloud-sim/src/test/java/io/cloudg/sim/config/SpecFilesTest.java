package io.cloudg.sim.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.sim.core.AwsType;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Estate and fault files: accepted shapes, and refusals that name the key. */
class SpecFilesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "aws: {accounts: abc}                           | estate.aws.accounts: expected a positive integer, got \"abc\"",
        "aws: {accounts: 0}                             | estate.aws.accounts: expected a positive integer, got 0",
        "aws: {acounts: 3}                              | estate.aws.acounts: unknown key",
        "awz: {}                                        | estate.awz: unknown key",
        "aws: {regions: [us-east-1, mars-1]}            | estate.aws.regions[1]: expected an AWS region name",
        "aws: {resources: {AWS::EC2::Vpc: 2}}           | estate.aws.resources.AWS::EC2::Vpc: unknown resource type",
        "aws: {resources: {AWS::EC2::VPC: -1}}          | estate.aws.resources.AWS::EC2::VPC: expected a non-negative integer, got -1",
        "aws: {management_account: '123'}               | estate.aws.management_account: expected a 12-digit account id",
        "aws: {security: {public_bucket_share: 1.5}}    | estate.aws.security.public_bucket_share: expected a number from 0 to 1, got 1.5",
        "aws: {security: {users_without_mfa_share: lots}} | estate.aws.security.users_without_mfa_share: expected a number from 0 to 1, got \"lots\"",
        "aws: {security: {open_groups_share: 0.1}}      | estate.aws.security.open_groups_share: unknown key (expected one of: public_bucket_share, open_security_group_share, users_without_mfa_share)",
        "aws: {security: 0.5}                           | estate.aws.security: expected a mapping, got 0.5",
        "azure: {resources: {virtualMachines: 2}}       | estate.azure.resources.virtualMachines: expected an ARM resource type",
        "gcp: {projects: many}                          | estate.gcp.projects: expected a non-negative integer, got \"many\"",
        "quotas: {aws: {services: {ec2: {rate: 0}}}}    | estate.quotas.aws.services.ec2.rate: expected a positive number, got 0",
        "quotas: {aws: {services: {ec2: {rat: 1}}}}     | estate.quotas.aws.services.ec2.rat: unknown key",
        "quotas: {azure: {arm_reads: {burst: 0.5}}}     | estate.quotas.azure.arm_reads.burst: expected a number of at least 1",
        "quotas: {enabled: yes please}                  | estate.quotas.enabled: expected true or false",
        "noisy_neighbours: [{match: {service: ec2}, share: 1}] | estate.noisy_neighbours[0].share: expected a number from 0 to 1 (exclusive), got 1",
        "latency: {base: fast}                          | estate.latency.base: expected a duration such as 250ms, 10s or 2m, got \"fast\"",
        "aws: [1, 2]                                    | estate.aws: expected a mapping, got a list",
        "'aws: {accounts: [}'                           | estate: not valid YAML",
        "realism: harsh                                 | estate.realism: expected strict or lenient, got \"harsh\"",
        "listings: {short_pages: 1}                     | estate.listings.short_pages: expected a number from 0 to 1 (exclusive), got 1",
        "listings: {short_pages: 0.6, empty_pages: 0.5} | estate.listings.empty_pages: short_pages + empty_pages must be less than 1",
        "listings: {tokens: numbered}                   | estate.listings.tokens: expected opaque or offset, got \"numbered\"",
        "listings: {page_size: 5}                       | estate.listings.page_size: unknown key",
        "churn: {created: 2}                            | estate.churn.created: expected a number from 0 to 1, got 2",
        "churn: {from: 2m, until: 1m}                   | estate.churn.until: must be later than churn.from, got \"1m\"",
        "churn: {window: 1m}                            | estate.churn.window: unknown key",
        "latency: {per_item: soon}                      | estate.latency.per_item: expected a duration",
        "noisy_neighbours: [{share: 0.5, bursts: {size: 2}}] | estate.noisy_neighbours[0].bursts.size: expected a number from 0 to 1, got 2",
        "noisy_neighbours: [{share: 0.5, bursts: {every: 0s}}] | estate.noisy_neighbours[0].bursts.every: expected a positive duration",
        "quotas: {aws: {ec2_refill: hourly}}            | estate.quotas.aws.ec2_refill: expected continuous or whole_second, got \"hourly\"",
        "quotas: {azure: {arm_retry_after: 500ms}}      | estate.quotas.azure.arm_retry_after: expected at least 1s",
        "quotas: {azure: {resource_graph: {rate: 1, calls: 15}}} | estate.quotas.azure.resource_graph: either {rate, burst}",
        "quotas: {azure: {resource_graph: {calls: 0}}}  | estate.quotas.azure.resource_graph.calls: expected a positive integer, got 0",
        "gcp: {consumer_project: My_Project}            | estate.gcp.consumer_project: expected a GCP project id",
        "aws: {accounts: 5, organizational_units: {Prod: 3, Dev: 2}} | estate.aws.organizational_units: places 5 accounts in organizational units, but the organization has only 4 member accounts",
        "aws: {organizational_units: [Prod, 'Root/Prod']} | estate.aws.organizational_units[1]: lists the organizational unit Prod twice",
        "aws: {organizational_units: ['Prod//Web']}     | estate.aws.organizational_units[0]: expected an organizational unit path such as Prod/Web",
        "aws: {organizational_units: {Prod: many}}      | estate.aws.organizational_units.Prod: expected a non-negative integer, got \"many\"",
        "aws: {accounts: 3, suspended_accounts: 3}      | estate.aws.suspended_accounts: expected at most 2",
        "aws: {opt_in_regions: {moon-1: 0.5}}           | estate.aws.opt_in_regions.moon-1: expected an AWS region name",
        "aws: {regions: [us-east-1], opt_in_regions: {us-east-1: 0.5}} | estate.aws.opt_in_regions.us-east-1: is already in aws.regions",
        "aws: {opt_in_regions: {af-south-1: 0}}         | estate.aws.opt_in_regions.af-south-1: expected a share of accounts above 0",
        "aws: {opt_in_regions: [af-south-1]}            | estate.aws.opt_in_regions: expected a mapping, got a list",
        "generation: -1                                 | estate.generation: expected a non-negative integer, got -1",
        "generation: next                               | estate.generation: expected a non-negative integer, got \"next\"",
        "generation_changes: {added: 2}                 | estate.generation_changes.added: expected a number from 0 to 1, got 2",
        "generation_changes: {renamed: 0.1}             | estate.generation_changes.renamed: unknown key",
    })
    void badEstateFilesAreRefusedNamingTheKey(String yaml, String message) {
        assertThatThrownBy(() -> EstateSpec.fromYaml(yaml)).isInstanceOf(SpecException.class).hasMessageStartingWith(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "faults: [{error: explode}]                           | faults[0].error: expected one of throttle, transient, reset, close, access_denied, slow, got \"explode\"",
        "faults: [{match: {service: ec2}}]                    | faults[0].error: required",
        "faults: [{error: throttle, cnt: 3}]                  | faults[0].cnt: unknown key",
        "faults: [{error: throttle, probability: 1.5}]        | faults[0].probability: expected a number from 0 to 1, got 1.5",
        "faults: [{error: throttle, count: 2, probability: 0.5}] | faults[0].probability: use either count or probability",
        "faults: [{error: throttle, match: {provider: aws2}}] | faults[0].match.provider: expected one of aws, azure, gcp, got \"aws2\"",
        "faults: [{error: throttle, match: {sevice: ec2}}]    | faults[0].match.sevice: unknown key",
        "faults: [{error: throttle, window: {from: 10s, until: 5s}}] | faults[0].window.until: must be later than window.from",
        "faults: [{error: throttle, delay: 1s}]               | faults[0].delay: only applies to error: slow",
        "fault: []                                            | fault: unknown key",
    })
    void badFaultFilesAreRefusedNamingTheKey(String yaml, String message) {
        assertThatThrownBy(() -> FaultSpec.fromYaml(yaml)).isInstanceOf(SpecException.class).hasMessageStartingWith(message);
    }

    @Test
    void aFullEstateFileIsRead() {
        EstateSpec s = EstateSpec.fromYaml("""
            seed: 9
            aws:
              accounts: 5
              management_account: "111111111111"
              regions: [us-east-1, eu-west-1, ap-southeast-2]
              role_name: AuditRole
              resources: {AWS::EC2::VPC: 3, AWS::EC2::Image: 10, AWS::IAM::Role: 1}
              security: {open_security_group_share: 0.5, users_without_mfa_share: 0}
            azure: {subscriptions: 4, locations: [eastus], resource_groups: 3, page_size: 7,
                    resources: {Microsoft.Compute/virtualMachines: 6}}
            gcp: {organization: "123456789012", projects: 2, resources: {compute.googleapis.com/Instance: 4}}
            quotas:
              aws: {default: {rate: 30}, services: {ec2.DescribeImageAttribute: {rate: 5, burst: 10}, iam: {burst: 80}}}
              azure: {resource_graph: {rate: 1, burst: 5}}
              gcp: {ListAssets: {project_per_minute: 60}}
            noisy_neighbours: [{match: {provider: aws, service: ec2}, share: 0.25}]
            latency: {base: 2ms, jitter: 0.5s}
            """);
        assertThat(s.seed()).isEqualTo(9L);
        assertThat(s.aws().accounts()).isEqualTo(5);
        assertThat(s.aws().managementAccount()).isEqualTo("111111111111");
        assertThat(s.aws().roleName()).isEqualTo("AuditRole");
        assertThat(s.aws().count(AwsType.EC2_IMAGE)).isEqualTo(10);
        assertThat(s.aws().count(AwsType.EC2_SUBNET)).isZero();
        assertThat(s.aws().security()).isEqualTo(new SecuritySpec(SecuritySpec.DEFAULTS.publicBucketShare(), 0.5, 0));
        assertThat(s.azure().pageSize()).isEqualTo(7);
        assertThat(s.gcp().organization()).isEqualTo("123456789012");
        assertThat(s.quotas().awsDefault().rate()).isEqualTo(30);
        assertThat(s.quotas().awsLimit("ec2", "DescribeImageAttribute").limit().rate()).isEqualTo(5);
        assertThat(s.quotas().awsLimit("ec2", "DescribeVpcs").limit().burst()).isEqualTo(100);
        assertThat(s.quotas().awsLimit("iam", "ListRoles").limit().rate()).isEqualTo(20);
        assertThat(s.quotas().awsLimit("iam", "ListRoles").limit().burst()).isEqualTo(80);
        assertThat(s.quotas().awsLimit("sqs", "ListQueues").limit().rate()).isEqualTo(30);
        assertThat(s.quotas().resourceGraph().capacity()).isEqualTo(5);
        assertThat(s.quotas().gcp("ListAssets").projectPerMinute()).isEqualTo(60);
        assertThat(s.quotas().gcp("ListAssets").organizationPerMinute()).isEqualTo(800);
        assertThat(s.neighbours()).hasSize(1);
        assertThat(s.latency().jitter()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void realismSetsTheDefaultsAndTheFileOverridesThem() {
        EstateSpec strict = EstateSpec.fromYaml("""
            realism: strict
            noisy_neighbours: [{match: {provider: aws}, share: 0.25}, {share: 0.1, bursts: {every: 5s, size: 0.2}}]
            quotas: {aws: {services: {iam: {rate: 3}}}}
            """);
        assertThat(strict.realism()).isEqualTo(Realism.STRICT);
        assertThat(strict.neighbours().get(0).load(Realism.STRICT).burstEveryNanos()).isEqualTo(30_000_000_000L);
        assertThat(strict.neighbours().get(0).load(Realism.LENIENT).bursts()).isFalse();
        assertThat(strict.neighbours().get(1).load(Realism.LENIENT).burstSize()).isEqualTo(0.2);
        assertThat(strict.listings().effective(Realism.STRICT).tokens()).isEqualTo(ListingSpec.Tokens.OPAQUE);
        assertThat(strict.effectiveChurn()).isEqualTo(ChurnSpec.STRICT_DEFAULT);
        assertThat(strict.latency().perItem(strict.realism())).isEqualTo(LatencySpec.STRICT_PER_ITEM);
        assertThat(strict.quotas().awsLimit("iam", "ListRoles").limit().rate()).isEqualTo(3);
        assertThat(strict.quotas().awsLimit("iam", "ListRoles").limit().burst()).as("strict's burst kept").isEqualTo(40);
        assertThat(strict.quotas().awsLimit("sts", "AssumeRole").limit().rate()).isEqualTo(50);
        assertThat(strict.quotas().armRetryAfter()).isEqualTo(Duration.ofSeconds(10));

        EstateSpec lenient = strict.withRealism(Realism.LENIENT);
        assertThat(lenient.quotas().awsLimit("iam", "ListRoles").limit().rate()).as("the override survives").isEqualTo(3);
        assertThat(lenient.quotas().awsLimit("sts", "AssumeRole").limit().rate()).isEqualTo(100);
        assertThat(lenient.quotas().armRetryAfter()).isNull();
        assertThat(lenient.quotas().armGlobalReads()).isNull();
        assertThat(lenient.effectiveChurn().none()).isTrue();
        assertThat(lenient.listings().effective(Realism.LENIENT).fullPages()).isTrue();
        assertThat(EstateSpec.fromYaml("").realism()).isEqualTo(Realism.LENIENT);
        assertThat(EstateSpec.fromYaml("realism: strict\nchurn: {created: 0.5, until: 10s}").effectiveChurn())
            .isEqualTo(new ChurnSpec(0.5, 0.02, Duration.ZERO, Duration.ofSeconds(10)));
    }

    @Test
    void theShippedExamplesAreValid() throws Exception {
        String estate = new String(getClass().getResourceAsStream("/io/cloudg/sim/examples/estate.yaml").readAllBytes(),
            java.nio.charset.StandardCharsets.UTF_8);
        String faults = new String(getClass().getResourceAsStream("/io/cloudg/sim/examples/faults.yaml").readAllBytes(),
            java.nio.charset.StandardCharsets.UTF_8);
        EstateSpec e = EstateSpec.fromYaml(estate);
        assertThat(e.aws().accounts()).isEqualTo(4);
        assertThat(e.aws().count(AwsType.EC2_IMAGE)).isEqualTo(20);
        assertThat(e.aws().security().publicBucketShare()).isEqualTo(0.25);
        assertThat(e.neighbours()).hasSize(1);
        assertThat(FaultSpec.fromYaml(faults).rules()).hasSize(5);
    }

    @Test
    void aFaultFileIsRead() {
        FaultSpec f = FaultSpec.fromYaml("""
            faults:
              - {match: {provider: aws, service: ec2, operation: DescribeSubnets}, error: throttle}
              - {match: {provider: gcp}, error: transient, count: 3, window: {from: 1s, until: 2m}}
              - {error: slow, delay: 250ms, probability: 0.1}
            """);
        assertThat(f.rules()).hasSize(3);
        assertThat(f.rules().get(0).error()).isEqualTo(FaultKind.THROTTLE);
        assertThat(f.rules().get(0).count()).isNull();
        assertThat(f.rules().get(1).count()).isEqualTo(3);
        assertThat(f.rules().get(1).until()).isEqualTo(Duration.ofMinutes(2));
        assertThat(f.rules().get(2).delay()).isEqualTo(Duration.ofMillis(250));
        assertThat(FaultSpec.fromYaml("").rules()).isEmpty();
    }
}
