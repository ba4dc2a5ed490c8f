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
import io.cloudg.sim.estate.Findings;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run_scanners, run_pipeline and scan_dataset through the SDK client, against cloud-sim's default estate,
 * which holds public buckets, security groups open on SSH/RDP and users without MFA by construction
 * ({@link CloudSim#findings()}): the findings must be exactly those, each naming its asset, and every asset
 * must be evaluated. A handmade dataset shows scan_dataset computing findings without a cloud.
 */
class McpScannersEndToEndTest {
    private static final List<String> BOTH_REGIONS = List.of("us-east-1", "eu-west-1");
    private static final Pattern PORT = Pattern.compile("port (\\d+) \\(");

    private static CloudSim sim;
    private static Governor governor;

    @TempDir
    Path dir;

    /** Every map (dataset) this class writes matches docs/schema/inventory-map.schema.json. */
    @org.junit.jupiter.api.AfterEach
    void mapsMatchTheSchema() {
        io.cloudg.testkit.MapSchema.assertEveryMapValid(dir);
    }

    private final ManualTimeSource time = new ManualTimeSource();
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    static void startSim() {
        sim = McpTestKit.startSim();
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
        return client(server, List.of("us-east-1"));
    }

    private McpSyncClient client(CloudgMcp[] server, List<String> regions) {
        CloudGConfig config = McpTestKit.config(sim, dir, RateLimitConfig.defaults()).aws(a -> a.withRegions(regions)).build();
        CloudgMcp mcp = CloudgMcp.builder(config).mcp(McpTestKit.mcp(dir)).governor(governor).time(time).build();
        open.add(mcp);
        CloudgMcp.HttpEndpoint http = mcp.serveHttp();
        open.add(http);
        McpSyncClient c = McpTestKit.http(http.uri(), ALICE);
        open.add(c::closeGracefully);
        server[0] = mcp;
        return c;
    }

    private long truth(String type, List<String> regions) {
        return sim.truth().assets().stream().filter(a -> a.type().equals(type)
                && (a.region().equals("global") || type.equals("AWS::S3::Bucket") || regions.contains(a.region()))).count();
    }

    private static JsonNode check(JsonNode result, String id) {
        return StreamSupport.stream(result.path("checks").spliterator(), false)
                .filter(c -> c.path("id").asText().equals(id)).findFirst().orElseThrow();
    }

    /** A finding as the scanner names its asset: check, account, region, type, id, ARN. */
    private record Named(String check, String account, String region, String type, String id, String arn) {
    }

    /** The sim's findings truth in the scanned regions, as the scanner must name them. */
    private static Set<Named> expected(List<String> regions) {
        Findings f = sim.findings();
        Set<Named> out = new HashSet<>();
        f.publicBuckets().forEach(b -> out.add(new Named("s3_bucket_public", b.account(), b.region(), "AWS::S3::Bucket",
                b.bucket(), "arn:aws:s3:::" + b.bucket())));
        f.openSecurityGroups().stream().filter(g -> regions.contains(g.region())).forEach(g -> out.add(new Named(
                "security_group_admin_port_open", g.account(), g.region(), "AWS::EC2::SecurityGroup", g.groupId(),
                "arn:aws:ec2:" + g.region() + ":" + g.account() + ":security-group/" + g.groupId())));
        f.usersWithoutMfa().forEach(u -> out.add(new Named("iam_user_without_mfa", u.account(), "global", "AWS::IAM::User",
                u.userName(), "arn:aws:iam::" + u.account() + ":user/" + u.userName())));
        return out;
    }

    /**
     * The findings of a scan result: exactly the sim's findings truth, each naming its asset (id, name,
     * ARN) and saying what the truth says (which admin ports, policy and/or ACL).
     */
    private static void assertFindingsAreTheTruth(JsonNode r, List<String> regions) {
        Set<Named> expected = expected(regions);
        assertThat(r.path("findings_total").asInt()).isEqualTo(expected.size());
        Set<Named> named = new HashSet<>();
        Map<String, Findings.PublicBucket> buckets = new HashMap<>();
        sim.findings().publicBuckets().forEach(b -> buckets.put(b.bucket(), b));
        Map<String, Findings.OpenSecurityGroup> groups = new HashMap<>();
        sim.findings().openSecurityGroups().forEach(g -> groups.put(g.groupId(), g));
        for (JsonNode f : r.path("findings")) {
            named.add(new Named(f.path("check").asText(), f.path("account_id").asText(), f.path("region").asText(),
                    f.path("type").asText(), f.path("id").asText(), f.path("arn").asText()));
        }
        assertThat(named).hasSize(r.path("findings").size()).isEqualTo(expected);
        for (JsonNode f : r.path("findings")) {
            String id = f.path("id").asText();
            assertThat(f.path("provider").asText()).isEqualTo("aws");
            assertThat(f.path("detail").asText()).contains(id);
            switch (f.path("check").asText()) {
                case "s3_bucket_public" -> {
                    Findings.PublicBucket b = buckets.get(id);
                    assertThat(f.path("name").asText()).isEqualTo(id);
                    assertThat(f.path("detail").asText().contains("bucket policy")).as(id).isEqualTo(b.viaPolicy());
                    assertThat(f.path("detail").asText().contains("its ACL")).as(id).isEqualTo(b.viaAcl());
                }
                case "security_group_admin_port_open" -> {
                    Findings.OpenSecurityGroup g = groups.get(id);
                    assertThat(f.path("name").asText()).isEqualTo(g.groupName());
                    assertThat(f.path("detail").asText()).contains("(" + g.groupName() + ")");
                    Set<Integer> ports = new TreeSet<>();
                    Matcher m = PORT.matcher(f.path("detail").asText());
                    while (m.find()) {
                        ports.add(Integer.parseInt(m.group(1)));
                    }
                    assertThat(ports).as(id).isEqualTo(new TreeSet<>(g.ports()));
                }
                default -> assertThat(f.path("name").asText()).isEqualTo(id);
            }
        }
    }

    @Test
    void runScannersFindsExactlyTheSimsFindingsEachNamingItsAsset() {
        McpSyncClient c = client(new CloudgMcp[1], BOTH_REGIONS);
        JsonNode r = json(call(c, "run_scanners", Map.of()));
        assertThat(r.path("dataset").path("kind").asText()).isEqualTo("scan");
        assertThat(r.path("incomplete")).isEmpty();
        long buckets = truth("AWS::S3::Bucket", BOTH_REGIONS);
        long groups = truth("AWS::EC2::SecurityGroup", BOTH_REGIONS);
        long users = truth("AWS::IAM::User", BOTH_REGIONS);
        assertThat(r.path("dataset").path("asset_count").asLong()).isEqualTo(buckets + groups + users);
        for (Map.Entry<String, Long> e : Map.of("s3_bucket_public", buckets, "security_group_admin_port_open", groups,
                "iam_user_without_mfa", users).entrySet()) {
            JsonNode check = check(r, e.getKey());
            assertThat(check.path("evaluated").asLong()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(check.path("not_evaluated").asLong()).as(e.getKey() + " " + check.path("not_evaluated_reasons")).isZero();
        }
        assertThat(check(r, "s3_bucket_public").path("failed").asInt()).isEqualTo(sim.findings().publicBuckets().size());
        assertThat(check(r, "security_group_admin_port_open").path("failed").asInt())
                .isEqualTo(sim.findings().openSecurityGroups().size());
        assertThat(check(r, "iam_user_without_mfa").path("failed").asInt()).isEqualTo(sim.findings().usersWithoutMfa().size());
        assertFindingsAreTheTruth(r, BOTH_REGIONS);
        assertThat(r.path("dataset").path("findings").asInt()).isEqualTo(r.path("findings_total").asInt());

        JsonNode again = json(call(c, "scan_dataset", Map.of("dataset", r.path("dataset").path("id").asText())));
        assertThat(again.path("source").asText()).isEqualTo("findings.json");
        assertFindingsAreTheTruth(again, BOTH_REGIONS);
    }

    @Test
    void runPipelineMapsScansAndSavesOneDataset() {
        McpSyncClient c = client(new CloudgMcp[1]);
        JsonNode r = json(call(c, "run_pipeline", Map.of()));
        assertThat(r.path("dataset").path("kind").asText()).isEqualTo("pipeline");
        assertThat(r.path("checks")).hasSize(3);
        assertFindingsAreTheTruth(r, List.of("us-east-1"));
        assertThat(r.path("dataset").path("findings").asInt()).isEqualTo(expected(List.of("us-east-1")).size());
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
        Path file = InventoryMapWriter.write(d.dir(), Map.of("id", "handmade", "mode", "embedded", "providers", List.of("aws"),
                "started_at", "2026-01-01T00:00:00Z", "finished_at", "2026-01-01T00:00:01Z", "governor", "memory"), summary, coverage,
                null, spool);
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
