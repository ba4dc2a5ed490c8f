package io.cloudg.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PriorRunTest {
    static final String MAP = """
            {
              "format": "cloudg.inventory-map/1",
              "run": {"id": "r1", "providers": ["aws"]},
              "summary": {"assets": 3, "coverage": {"SUCCESS": 2}},
              "coverage": [
                {"provider": "aws", "account_id": "111", "region": "us-east-1", "status": "SUCCESS",
                 "services": [{"service": "vpc", "status": "SUCCESS", "asset_count": 2, "error": null},
                              {"service": "amis", "status": "PARTIAL", "asset_count": 400, "error": "throttled"}]},
                {"provider": "aws", "account_id": "111", "region": "global", "status": "SUCCESS",
                 "services": [{"service": "iam_users", "status": "SUCCESS", "asset_count": 7, "error": null}]}
              ],
              "throttling": {"summary": {"calls": 3}},
              "assets": [{"provider": "aws", "id": "vpc-1", "coverage": [{"service": "not a coverage entry"}]},
                         {"provider": "aws", "id": "vpc-2"}]
            }
            """;

    @Test
    void readsEachRecordsCollectorCountsAndSkipsTheAssets() throws Exception {
        PriorRun p = PriorRun.parse(new ByteArrayInputStream(MAP.getBytes(StandardCharsets.UTF_8)), null);
        assertThat(p.records()).isEqualTo(2);
        assertThat(p.assets("aws/111/us-east-1", "amis")).isEqualTo(400);
        assertThat(p.assets("aws/111/us-east-1", "vpc")).isEqualTo(2);
        assertThat(p.assets("aws/111/global", "iam_users")).isEqualTo(7);
        assertThat(p.assets("aws/111/global", "vpc")).as("not run there").isEqualTo(-1);
        assertThat(p.assets("aws/222/us-east-1", "vpc")).as("no such record").isEqualTo(-1);
        assertThat(p.assets("aws/111/us-east-1", "subnets")).as("no such collector").isEqualTo(-1);
    }

    @Test
    void theOutputDirectorysMapAndTheKeptRunsLatestComeFirst(@TempDir Path dir) throws Exception {
        assertThat(PriorRun.read(dir)).isSameAs(PriorRun.NONE);
        Files.writeString(dir.resolve("inventory-map.json"), MAP);
        assertThat(PriorRun.read(dir).assets("aws/111/us-east-1", "amis")).isEqualTo(400);
        Path latest = Files.createDirectories(dir.resolve("runs/latest"));
        Files.writeString(latest.resolve("inventory-map.json"), MAP.replace("400", "12"));
        PriorRun p = PriorRun.read(dir);
        assertThat(p.assets("aws/111/us-east-1", "amis")).isEqualTo(12);
        assertThat(p.source()).isEqualTo(latest.resolve("inventory-map.json"));
    }

    @Test
    void anUnreadableMapIsNoPriorRunNotAFailure(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("inventory-map.json"), "{\"coverage\": [ {\"provider\": ");
        assertThat(PriorRun.read(dir)).isSameAs(PriorRun.NONE);
        Files.writeString(dir.resolve("inventory-map.json"), "[]");
        assertThat(PriorRun.read(dir)).isSameAs(PriorRun.NONE);
    }

    @Test
    void expectedCallsFollowTheCollectorsShape() throws Exception {
        CallEstimates e = new CallEstimates(PriorRun.parse(new ByteArrayInputStream(MAP.getBytes(StandardCharsets.UTF_8)), null));
        assertThat(e.expected("aws", "111", "us-east-1", "amis")).as("a page and one DescribeImageAttribute per AMI")
                .isEqualTo(4 + 400);
        assertThat(e.expected("aws", "111", "us-east-1", "vpc")).isEqualTo(1);
        assertThat(e.expected("aws", "111", "eu-west-1", "amis")).as("not sized: a listing").isEqualTo(1);
        assertThat(e.known("aws", "111", "eu-west-1", "amis")).isFalse();
        assertThat(e.known("aws", "111", "us-east-1", "amis")).isTrue();
    }

    @Test
    void shapesComeFromTheAwsCatalog() {
        CallShape amis = CallShapes.of("aws", "amis");
        assertThat(amis.service()).isEqualTo("ec2");
        assertThat(amis.itemOperation()).isEqualTo("DescribeImageAttribute");
        assertThat(amis.perItemCalls()).isEqualTo(1);
        assertThat(CallShapes.of("aws", "vpc").perItemCalls()).isZero();
        assertThat(CallShapes.of("azure", "azure_network")).isEqualTo(CallShape.listing("azure_network", null));
        assertThat(amis.calls(0)).isEqualTo(1);
        assertThat(amis.calls(100)).isEqualTo(101);
        assertThat(amis.calls(101)).isEqualTo(2 + 101);
    }
}
