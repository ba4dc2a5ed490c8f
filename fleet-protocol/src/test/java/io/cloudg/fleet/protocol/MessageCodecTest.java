package io.cloudg.fleet.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.SkippedAccount;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.report.ThrottlingStats;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageCodecTest {
    final MessageCodec codec = new MessageCodec();
    final WireTarget target = new WireTarget("aws", "111111111111", "us-east-1", List.of("vpc", "subnets"),
            Map.of("management_account", "111111111111"));
    final Asset asset = new Asset("aws", "111111111111", "us-east-1", "ec2", "AWS::EC2::VPC", "vpc-1", "main",
            "arn:aws:ec2:us-east-1:111111111111:vpc/vpc-1", Map.of("env", "prod"), Map.of("cidr", "10.0.0.0/16"));

    byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aTaskRoundTripsWithSnakeCaseFieldsAndNoCredentials() {
        TaskMessage m = TaskMessage.first("run-1", "aws/111111111111/us-east-1#0", target, 60_000, 1234).retry(2, 5678, "w1");
        byte[] bytes = codec.encode(m);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text).contains("\"run_id\":\"run-1\"", "\"task_id\":", "\"account_id\":\"111111111111\"",
                "\"timeout_ms\":60000", "\"avoid_worker\":\"w1\"", "\"v\":1").doesNotContainIgnoringCase("secret");
        assertThat(codec.task(bytes)).isEqualTo(m);
        assertThat(codec.task(bytes).target().toTarget().recordId()).isEqualTo("aws/111111111111/us-east-1");
    }

    @Test
    void aTaskCarriesItsExpectedCallsAndOneWithoutThemReadsAsUnknown() {
        PlannedTask planned = new PlannedTask("aws/1/r#0", "aws/1/r", 0, target, false, 404);
        TaskMessage m = TaskMessage.first("run-1", planned, 60_000, 1234);
        assertThat(m.cost()).isEqualTo(404);
        assertThat(m.retry(2, 5678, null).cost()).as("a retry keeps it").isEqualTo(404);
        assertThat(new String(codec.encode(m), StandardCharsets.UTF_8)).contains("\"cost\":404");
        String older = "{\"v\":1,\"run_id\":\"run-1\",\"task_id\":\"aws/1/r#0\",\"attempt\":1,\"target\":{\"provider\":"
                + "\"aws\",\"account_id\":\"1\",\"region\":\"r\",\"collectors\":[\"vpc\"]},\"timeout_ms\":60000,"
                + "\"published_at\":1}";
        assertThat(codec.task(json(older)).cost()).as("a build before sizes").isZero();
        assertThatThrownBy(() -> codec.task(json(older.replace("\"published_at\":1", "\"published_at\":1,\"cost\":-3"))))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("cost must be at least 0, but was -3");
    }

    @Test
    void everyResultTypeRoundTrips() {
        ThrottlingStats stats = new ThrottlingStats();
        stats.counters(Scope.of("aws", "111111111111", "us-east-1", "ec2")).call();
        stats.counters(Scope.of("aws", "111111111111", "us-east-1", "ec2")).waited(1_234_567);
        stats.skipped(Scope.of("aws", "111111111111", "us-east-1", "ec2"), "throttled: gave up");
        List<ResultMessage> all = List.of(
                new TaskStarted(1, "r", "t#0", 1, "e1", "w1", 10),
                new AssetChunk(1, "r", "t#0", "e1", 0, List.of(asset)),
                new TaskDone(1, "r", "t#0", 1, "e1", "w1", 1, 1,
                        List.of(ServiceCoverage.success("vpc", 1), new ServiceCoverage("subnets", CoverageStatus.PARTIAL, 0, "throttled: x")),
                        WireThrottling.of(stats), 10, 20),
                new TaskAbandoned(1, "r", "t#0", 1, "e1", "w1", "timeout", false, 30));
        for (ResultMessage m : all) {
            assertThat(codec.result(codec.encode(m))).isEqualTo(m);
        }
        TaskDone d = (TaskDone) codec.result(codec.encode(all.get(2)));
        assertThat(d.throttling().scopes().get("aws/111111111111/us-east-1/ec2").waitNanos()).isEqualTo(1_234_567);
        assertThat(d.throttling().skipped()).containsEntry("aws/111111111111/us-east-1/ec2", "throttled: gave up");
    }

    @Test
    void assetsKeepTheMapsOwnFormat() throws Exception {
        String chunk = new String(codec.encode(new AssetChunk(1, "r", "t#0", "e1", 0, List.of(asset))), StandardCharsets.UTF_8);
        String spoolLine = new ObjectMapper().writerFor(Asset.class).writeValueAsString(asset);
        assertThat(chunk).contains(spoolLine);
    }

    @Test
    void journalEntriesRoundTrip() {
        RunPlanned p = new RunPlanned(1, "r", 1, List.of("aws"), 2, 1, 1000, 3,
                List.of(new CoverageRecord("aws", "1", "discovery", List.of(ServiceCoverage.success("organizations", 3)))),
                Map.of(0, 5L), Map.of(0, 0L), Map.of(0, 7L, 1, 9L),
                List.of(new SkippedAccount("aws", "222222222222", "sandbox", SkippedAccount.SUSPENDED, null)));
        assertThat(codec.journal(codec.encode(p))).isEqualTo(p);
        PlanChunk c = new PlanChunk(1, "r", 0, List.of(new PlannedTask("a#0", "a", 0, target, false)));
        assertThat(codec.journal(codec.encode(c))).isEqualTo(c);
    }

    @Test
    void unusableMessagesAreRefusedWithAReason() {
        assertThatThrownBy(() -> codec.task(json("{not json")))
                .isInstanceOf(MalformedMessageException.class).hasMessageStartingWith("not a readable task message:");
        assertThatThrownBy(() -> codec.task(new byte[0])).hasMessage("not a readable task message: the message is empty");
        assertThatThrownBy(() -> codec.task(json("{\"v\":2,\"run_id\":\"r\"}")))
                .hasMessage("protocol version 2 is not supported (this build reads 1)");
        assertThatThrownBy(() -> codec.task(json("{\"run_id\":\"r\"}"))).hasMessage("missing v (the protocol version)");
        assertThatThrownBy(() -> codec.task(json("{\"v\":1,\"run_id\":\"r\",\"task_id\":\"t\",\"attempt\":1,\"timeout_ms\":5}")))
                .hasMessage("missing target");
        assertThatThrownBy(() -> codec.task(json("{\"v\":1,\"run_id\":\"r\",\"task_id\":\"t\",\"attempt\":1,\"timeout_ms\":5,"
                + "\"target\":{\"provider\":\"aws\",\"account_id\":\"1\",\"region\":\"x\",\"collectors\":[]}}")))
                .hasMessage("missing target.collectors");
        assertThatThrownBy(() -> codec.result(json("{\"type\":\"gossip\",\"v\":1}")))
                .hasMessageStartingWith("not a readable result message:");
        assertThatThrownBy(() -> codec.result(json("{\"type\":\"assets\",\"v\":1,\"run_id\":\"r\",\"task_id\":\"t\","
                + "\"execution_id\":\"e\",\"seq\":0,\"assets\":[{\"provider\":\"aws\"}]}")))
                .isInstanceOf(MalformedMessageException.class);
        assertThatThrownBy(() -> codec.result(json("{\"type\":\"done\",\"v\":1,\"run_id\":\"r\",\"task_id\":\"t\",\"attempt\":1,"
                + "\"execution_id\":\"e\",\"worker_id\":\"w\",\"chunks\":0,\"asset_count\":0,\"coverage\":[],"
                + "\"started_at\":1,\"finished_at\":2}"))).hasMessage("missing coverage");
    }

    @Test
    void unknownFieldsOfTheSameVersionAreIgnored() {
        TaskStarted s = (TaskStarted) codec.result(json("{\"type\":\"started\",\"v\":1,\"run_id\":\"r\",\"task_id\":\"t\","
                + "\"attempt\":1,\"execution_id\":\"e\",\"worker_id\":\"w\",\"started_at\":5,\"zone\":\"eu-west-1a\"}"));
        assertThat(s.workerId()).isEqualTo("w");
    }
}
