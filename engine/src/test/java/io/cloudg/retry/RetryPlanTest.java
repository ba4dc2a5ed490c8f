package io.cloudg.retry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.aws.AwsProvider;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.run.TaskTarget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a retry re-runs and how it merges, from the old map alone (pure). */
class RetryPlanTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static ServiceCoverage ok(String s) {
        return ServiceCoverage.success(s, 1);
    }

    static ServiceCoverage failed(String s) {
        return new ServiceCoverage(s, CoverageStatus.FAILED, 0, "AccessDenied: no");
    }

    static ServiceCoverage partial(String s) {
        return new ServiceCoverage(s, CoverageStatus.PARTIAL, 3, "throttled: gave up");
    }

    static JsonNode run(String json) throws Exception {
        return JSON.readTree(json);
    }

    static final String SUB = "11111111-1111-1111-1111-111111111111";

    static final List<CoverageRecord> OLD = List.of(
            new CoverageRecord("aws", "111111111111", "discovery", List.of(ok("organizations"), ok("regions"))),
            new CoverageRecord("aws", "111111111111", "global", List.of(ok("iam_users"), ok("accounts"))),
            new CoverageRecord("aws", "222222222222", "us-east-1", List.of(ok("vpc"), failed("subnets"), partial("amis"))),
            new CoverageRecord("azure", SUB, "global", List.of(ok("azure_resources"), partial("azure_storage"),
                    new ServiceCoverage("azure_full", CoverageStatus.PARTIAL, 4, "azure_storage: throttled"))));

    @Test
    void onlyTheEntriesThatAreNotSuccessAreRetriedWithTheRecordedFacts() throws Exception {
        RetryPlan p = RetryPlan.of(OLD, run("{\"discovery\": {\"aws\": {\"management_account\": \"111111111111\"}}}"),
                AwsProvider::discoveryJob);
        assertThat(p.rediscover()).isEmpty();
        assertThat(p.targets()).containsExactly(
                new TaskTarget("aws", "222222222222", "us-east-1", List.of("subnets", "amis"),
                        Map.of(TaskTarget.MANAGEMENT_ACCOUNT, "111111111111")),
                new TaskTarget("azure", SUB, "global", List.of("azure_storage"), Map.of()));
        assertThat(p.retried()).containsExactly("aws/222222222222/us-east-1/subnets", "aws/222222222222/us-east-1/amis",
                "azure/" + SUB + "/global/azure_storage");
    }

    @Test
    void theManagementAccountComesFromTheDiscoveryRecordWhenTheRunBlockHasNone() throws Exception {
        RetryPlan p = RetryPlan.of(OLD, run("{}"), AwsProvider::discoveryJob);
        assertThat(p.targets().get(0).discovery()).containsEntry(TaskTarget.MANAGEMENT_ACCOUNT, "111111111111");
        List<CoverageRecord> noDiscovery = OLD.subList(1, OLD.size());
        RetryPlan blind = RetryPlan.of(noDiscovery, run("{}"), AwsProvider::discoveryJob);
        assertThat(blind.rediscover()).containsExactly("aws");
        assertThat(blind.targets()).extracting(TaskTarget::provider).containsExactly("azure");
    }

    @Test
    void aFailedDiscoveryRediscoversItsProvider() throws Exception {
        List<CoverageRecord> old = List.of(
                new CoverageRecord("aws", "111111111111", "discovery", List.of(failed("organizations"), ok("regions"))),
                new CoverageRecord("aws", "111111111111", "us-east-1", List.of(failed("vpc"))));
        RetryPlan p = RetryPlan.of(old, run("{}"), AwsProvider::discoveryJob);
        assertThat(p.rediscover()).containsExactly("aws");
        assertThat(p.targets()).isEmpty();
        assertThat(p.retried()).containsExactly("aws/111111111111/discovery/organizations", "aws/111111111111/us-east-1/vpc");
    }

    @Test
    void theMergeReplacesRetriedEntriesKeepsTheRestAndSummarizesAzureAgain() {
        List<CoverageRecord> fresh = List.of(
                new CoverageRecord("aws", "222222222222", "us-east-1", List.of(ok("subnets"), ok("amis"))),
                new CoverageRecord("azure", SUB, "global", List.of(ok("azure_storage"))));
        List<CoverageRecord> merged = RetryPlan.merge(OLD, fresh);
        assertThat(merged).hasSize(4);
        assertThat(merged.get(0)).isEqualTo(OLD.get(0));
        assertThat(merged.get(2).services()).containsExactly(ok("vpc"), ok("subnets"), ok("amis"));
        assertThat(merged.get(3).services()).extracting(ServiceCoverage::service, ServiceCoverage::status).containsExactly(
                org.assertj.core.groups.Tuple.tuple("azure_resources", CoverageStatus.SUCCESS),
                org.assertj.core.groups.Tuple.tuple("azure_storage", CoverageStatus.SUCCESS),
                org.assertj.core.groups.Tuple.tuple("azure_full", CoverageStatus.SUCCESS));
    }

    @Test
    void aRediscoveredProviderGetsItsNewDiscoveryRecordAndTheRecordsTheOldMapLacked() {
        List<CoverageRecord> old = List.of(
                new CoverageRecord("aws", "111111111111", "discovery", List.of(failed("organizations"))),
                new CoverageRecord("aws", "111111111111", "us-east-1", List.of(ok("vpc"))));
        List<CoverageRecord> fresh = List.of(
                new CoverageRecord("aws", "111111111111", "discovery", List.of(ok("organizations"))),
                new CoverageRecord("aws", "333333333333", "us-east-1", List.of(ok("vpc"))));
        List<CoverageRecord> merged = RetryPlan.merge(old, fresh);
        assertThat(merged).extracting(r -> r.accountId() + "/" + r.region() + "=" + r.status()).containsExactly(
                "111111111111/discovery=SUCCESS", "111111111111/us-east-1=SUCCESS", "333333333333/us-east-1=SUCCESS");
    }
}
