package io.cloudg.mcp;

import static io.cloudg.mcp.McpTestKit.ALICE;
import static io.cloudg.mcp.McpTestKit.call;
import static io.cloudg.mcp.McpTestKit.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.CloudGConfig;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.InventoryMapWriter;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.mcp.dataset.DatasetStore;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run_scanners, run_pipeline and scan_dataset through the SDK client. cloud-sim serves the security
 * groups' listing but not their inbound rules, nor S3's PublicAccessBlock/PolicyStatus/ACL nor IAM's
 * ListMFADevices: against it the checks must say "not evaluated", with the reason, rather than "pass". A
 * dataset with those attributes (as the AWS collectors store them) shows the findings, each naming its asset.
 */
class McpScannersEndToEndTest {
    private static CloudSim sim;
    private static Governor governor;

    @TempDir
    Path dir;

    private final ManualTimeSource time = new ManualTimeSource();
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    static void startSim() {
        sim = CloudSim.start(SimOptions.builder().port(0).estate(EstateSpec.defaultEstate()).build());
        governor = Governor.builder().config(RateLimitConfig.defaults()).build();
    }

    @AfterAll
    static void stopSim() {
        sim.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private McpSyncClient client(CloudgMcp[] server) {
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).build();
        CloudgMcp mcp = CloudgMcp.builder(config).governor(governor).time(time).build();
        open.add(mcp);
        CloudgMcp.HttpEndpoint http = mcp.serveHttp();
        open.add(http);
        McpSyncClient c = McpTestKit.http(http.uri(), ALICE);
        open.add(c::closeGracefully);
        server[0] = mcp;
        return c;
    }

    private long truth(String type, String region) {
        return sim.truth().assets().stream().filter(a -> a.type().equals(type) && (region == null || a.region().equals(region)))
                .count();
    }

    private static JsonNode check(JsonNode result, String id) {
        return StreamSupport.stream(result.path("checks").spliterator(), false)
                .filter(c -> c.path("id").asText().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void runScannersCollectsWhatTheChecksReadAndSaysWhatTheSimCannotTell() {
        McpSyncClient c = client(new CloudgMcp[1]);
        JsonNode r = json(call(c, "run_scanners", Map.of()));
        assertThat(r.path("dataset").path("kind").asText()).isEqualTo("scan");
        assertThat(r.path("findings_total").asInt()).isZero();
        assertThat(r.path("dataset").path("findings").asInt()).isZero();
        long buckets = truth("AWS::S3::Bucket", null);
        long groups = truth("AWS::EC2::SecurityGroup", "us-east-1");
        long users = truth("AWS::IAM::User", null);
        assertThat(r.path("dataset").path("asset_count").asLong()).isEqualTo(buckets + groups + users);

        JsonNode s3 = check(r, "s3_bucket_public");
        assertThat(s3.path("not_evaluated").asLong()).isEqualTo(buckets);
        assertThat(s3.path("evaluated").asLong()).isZero();
        assertThat(s3.path("not_evaluated_reasons").fieldNames().next()).isEqualTo("attribute(s) policy_public, acl_public, "
                + "restrict_public_buckets, ignore_public_acls not collected (GetPublicAccessBlock: NotImplemented; "
                + "GetBucketPolicyStatus: NotImplemented; GetBucketAcl: NotImplemented)");
        JsonNode sg = check(r, "security_group_admin_port_open");
        assertThat(sg.path("evaluated").asLong()).as("the listing carries (empty) rules").isEqualTo(groups);
        assertThat(sg.path("failed").asLong()).isZero();
        JsonNode iam = check(r, "iam_user_without_mfa");
        assertThat(iam.path("not_evaluated").asLong()).isEqualTo(users);
        assertThat(iam.path("not_evaluated_reasons").fieldNames().next()).contains("ListMFADevices: InvalidAction");

        JsonNode again = json(call(c, "scan_dataset", Map.of("dataset", r.path("dataset").path("id").asText())));
        assertThat(again.path("source").asText()).isEqualTo("findings.json");
        assertThat(check(again, "s3_bucket_public").path("not_evaluated").asLong()).isEqualTo(buckets);
    }

    @Test
    void runPipelineMapsScansAndSavesOneDataset() {
        McpSyncClient c = client(new CloudgMcp[1]);
        JsonNode r = json(call(c, "run_pipeline", Map.of()));
        assertThat(r.path("dataset").path("kind").asText()).isEqualTo("pipeline");
        assertThat(r.path("dataset").path("findings").asInt()).isZero();
        assertThat(r.path("checks")).hasSize(3);
        assertThat(r.path("summary").path("assets").asLong()).isEqualTo(r.path("dataset").path("asset_count").asLong());
        assertThat(json(call(c, "list_datasets", Map.of("provider", "aws"))).path("datasets").get(0).path("kind").asText())
                .isEqualTo("pipeline");
    }

    @Test
    void scanDatasetNamesEveryFailingAssetOfASavedDatasetWithoutACloud() throws Exception {
        CloudgMcp[] server = new CloudgMcp[1];
        McpSyncClient c = client(server);
        DatasetStore store = server[0].datasets();
        DatasetStore.Draft d = store.begin();
        AssetSpool spool = AssetSpool.temporary(d.dir());
        spool.accept(new Asset("aws", "111111111111", "us-east-1", "s3", "AWS::S3::Bucket", "public-logs", "public-logs",
                "arn:aws:s3:::public-logs", Map.of(), Map.of("policy_public", true, "restrict_public_buckets", false,
                "acl_public", false, "ignore_public_acls", false)));
        spool.accept(new Asset("aws", "111111111111", "eu-west-1", "ec2", "AWS::EC2::SecurityGroup", "sg-0abc", "bastion",
                null, Map.of(), Map.of("ingress", List.of(Map.of("protocol", "tcp", "from_port", 22, "to_port", 22,
                "cidrs", List.of("0.0.0.0/0"), "ipv6_cidrs", List.of())))));
        spool.accept(new Asset("aws", "111111111111", "global", "iam", "AWS::IAM::User", "deploy-bot", "deploy-bot",
                null, Map.of(), Map.of("mfa_devices", 0)));
        List<CoverageRecord> coverage = List.of(new CoverageRecord("aws", "111111111111", "global",
                List.of(ServiceCoverage.success("s3_buckets", 1))));
        Summary summary = Summary.of(spool.count(), coverage, 0.1, null);
        Path file = InventoryMapWriter.write(d.dir(), Map.of("id", "handmade"), summary, coverage, null, spool);
        InventoryResult result = new InventoryResult("handmade", coverage, summary, null, file, spool);
        result.discardSpool();
        store.commit(d, new DatasetStore.Source("map", "map_inventory", "alice", "op-handmade", List.of("aws"),
                List.of("aws"), null), result, null);
        time.advance(Duration.ofSeconds(1));
        long callsBefore = governor.report().totals().calls();

        JsonNode r = json(call(c, "scan_dataset", Map.of()));
        assertThat(r.path("source").asText()).isEqualTo("computed from the dataset's assets");
        assertThat(r.path("findings_total").asInt()).isEqualTo(3);
        List<String> named = new ArrayList<>();
        r.path("findings").forEach(f -> named.add(f.path("check").asText() + " " + f.path("id").asText() + " "
                + f.path("account_id").asText() + " " + f.path("region").asText()));
        assertThat(named).containsExactly("s3_bucket_public public-logs 111111111111 us-east-1",
                "security_group_admin_port_open sg-0abc 111111111111 eu-west-1",
                "iam_user_without_mfa deploy-bot 111111111111 global");
        assertThat(r.path("findings").get(1).path("detail").asText())
                .isEqualTo("security group sg-0abc (bastion): port 22 (SSH) open to 0.0.0.0/0");
        assertThat(governor.report().totals().calls()).as("no cloud call").isEqualTo(callsBefore);
    }
}
