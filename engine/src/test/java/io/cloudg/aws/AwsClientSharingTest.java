package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.collect.Coverage;
import io.cloudg.collect.TaskRunner;
import io.cloudg.config.AwsSettings;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.run.ProviderPlan;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.core.AwsType;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeRegionsRequest;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * SDK clients are built once per service x region and shared by every account: a map of many accounts
 * builds as many clients as a map of few, still equals the sim's truth, and the governor paces each call in
 * its own account's scope.
 */
class AwsClientSharingTest {
    static final List<String> REGIONS = List.of("us-east-1", "eu-west-1");
    static final List<String> COLLECTORS = List.of("vpc", "iam_roles", "s3_buckets", "lambda_functions", "accounts");
    static final Set<String> TYPES = Set.of("AWS::EC2::VPC", "AWS::IAM::Role", "AWS::S3::Bucket", "AWS::Lambda::Function",
            "AWS::Organizations::Account");

    @TempDir
    Path out;

    record Outcome(int builds, Set<String> accountsPaced, Set<String> accountsMapped) {
    }

    @Test
    void clientsAreBuiltOncePerServiceAndRegionWhateverTheNumberOfAccounts() throws Exception {
        Outcome few = map(3);
        Outcome many = map(12);
        // sts, organizations, iam, s3 (global: the default region), ec2 and lambda in each region
        assertThat(many.builds()).isEqualTo(few.builds()).isEqualTo(8);
        assertThat(many.accountsMapped()).hasSize(12);
        assertThat(many.accountsPaced()).as("each account's calls are paced in its own scope")
                .isEqualTo(many.accountsMapped());
    }

    Outcome map(int accounts) throws Exception {
        Map<AwsType, Integer> counts = new EnumMap<>(AwsType.class);
        counts.put(AwsType.EC2_VPC, 1);
        counts.put(AwsType.IAM_ROLE, 1);
        counts.put(AwsType.S3_BUCKET, 1);
        counts.put(AwsType.LAMBDA_FUNCTION, 2);
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0)
                .estate(EstateSpec.generated(accounts, REGIONS, counts)).build())) {
            AwsSettings settings = AwsSettings.DEFAULTS.withEndpoint(sim.awsEndpoint()).withOrg(true)
                    .withCollectors(COLLECTORS, List.of()).withSweeps(false, false)
                    .withCredentials(sim.managementCredentials().accessKeyId(), sim.managementCredentials().secretAccessKey());
            Governor governor = Governor.builder().config(RateLimitConfig.defaults()).build();
            ThrottlingStats run = new ThrottlingStats();
            AssetSpool spool = AssetSpool.temporary(out);
            try (AwsClients clients = new AwsClients(settings, governor, 32)) {
                ProviderPlan plan;
                try (TaskLedger.Binding b = TaskLedger.create("aws/discovery", run).bind()) {
                    plan = new AwsProvider(settings, clients).plan();
                }
                List<CoverageRecord> coverage = new TaskRunner(8, Coverage.of(governor), run, spool, null).run(plan.tasks());
                assertThat(coverage).allSatisfy(r -> assertThat(r.status()).as(r.toString()).isEqualTo(CoverageStatus.SUCCESS));
                Set<String> truth = sim.truth().assets().stream().filter(a -> a.provider().equals("aws") && TYPES.contains(a.type()))
                        .map(a -> a.account() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                        .collect(Collectors.toCollection(TreeSet::new));
                Set<String> mapped;
                try (Stream<io.cloudg.inventory.Asset> assets = spool.stream()) {
                    mapped = assets.map(a -> a.accountId() + "|" + a.region() + "|" + a.type() + "|" + a.id())
                            .collect(Collectors.toCollection(TreeSet::new));
                }
                assertThat(truth).hasSizeGreaterThan(accounts * 5);
                assertThat(mapped).isEqualTo(truth);
                Set<String> paced = governor.stats().countsByScope().keySet().stream()
                        .filter(s -> s.service().equals("lambda") && s.region().equals("eu-west-1"))
                        .map(Scope::account).collect(Collectors.toCollection(TreeSet::new));
                Set<String> accountIds = coverage.stream().map(CoverageRecord::accountId)
                        .collect(Collectors.toCollection(TreeSet::new));
                return new Outcome(clients.clientsBuilt(), paced, accountIds);
            } finally {
                spool.delete();
            }
        }
    }

    @Test
    void eachRequestCarriesItsAccountAndKeepsWhatItOverrides() throws Exception {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().port(0).estate(EstateSpec.defaultEstate()).build())) {
            AwsSettings settings = AwsSettings.DEFAULTS.withEndpoint(sim.awsEndpoint())
                    .withCredentials(sim.managementCredentials().accessKeyId(), sim.managementCredentials().secretAccessKey());
            Governor governor = Governor.builder().config(RateLimitConfig.defaults()).build();
            try (AwsClients clients = new AwsClients(settings, governor, 8)) {
                AwsAccount self = new AwsAccount("111122223333", null, new AwsProvider(settings, clients).managementCredentials(), true);
                AccountClient<Ec2Client> ec2 = clients.client(Ec2Client.class, self, "us-east-1");
                assertThat(ec2.client().describeRegions(r -> r.overrideConfiguration(ec2.override())).regions()).isNotEmpty();
                // a paginator keeps the first request's override on every page (5 VPCs a page)
                assertThat(ec2.client().describeVpcsPaginator(r -> r.maxResults(5).overrideConfiguration(ec2.override())).stream()
                        .mapToInt(p -> p.vpcs().size()).sum()).isPositive();
                assertThatThrownBy(() -> ec2.client().describeVpcs(r -> r.maxResults(5)))
                        .as("a request without an account is never sent as someone").hasMessageContaining("without an account");

                DescribeRegionsRequest request = ec2.as(DescribeRegionsRequest.builder()
                        .overrideConfiguration(o -> o.apiCallTimeout(java.time.Duration.ofSeconds(7))).build());
                var o = request.overrideConfiguration().orElseThrow();
                assertThat(o.apiCallTimeout()).contains(java.time.Duration.ofSeconds(7));
                assertThat(o.credentialsProvider()).contains(self.credentials());
                assertThat(o.executionAttributes().getAttribute(GovernedAwsCalls.ACCOUNT)).isEqualTo("111122223333");

                assertThat(clients.client(Ec2Client.class, new AwsAccount("444455556666", null, self.credentials(), false),
                        "us-east-1").client()).as("one client per service and region").isSameAs(ec2.client());
                assertThat(clients.client(StsClient.class, self, "eu-west-1").client()).isNotNull();
                assertThat(clients.clientsBuilt()).as("ec2 in us-east-1, sts in eu-west-1").isEqualTo(2);
                assertThat(governor.stats().countsByScope().keySet()).extracting(Scope::account).containsOnly("111122223333");
            }
        }
    }
}
