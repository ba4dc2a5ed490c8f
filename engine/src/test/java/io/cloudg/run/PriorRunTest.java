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
        assertThat(p.durationSeconds()).as("the map says none").isNaN();
        assertThat(p.mode()).isNull();
    }

    @Test
    void readsHowLongAndHowThePreviousMapRan() throws Exception {
        String map = MAP.replace("\"run\": {\"id\": \"r1\", \"providers\": [\"aws\"]}",
                        "\"run\": {\"id\": \"r1\", \"mode\": \"embedded\", \"providers\": [\"aws\"], \"governor\": \"memory\"}")
                .replace("\"summary\": {\"assets\": 3, \"coverage\": {\"SUCCESS\": 2}}",
                        "\"summary\": {\"assets\": 3, \"providers\": {\"aws\": {\"accounts\": 1}}, \"duration_seconds\": 151.25, "
                                + "\"throttling\": {\"calls\": 3}}");
        PriorRun p = PriorRun.parse(new ByteArrayInputStream(map.getBytes(StandardCharsets.UTF_8)), null);
        assertThat(p.durationSeconds()).isEqualTo(151.25);
        assertThat(p.mode()).isEqualTo("embedded");
        assertThat(p.assets("aws/111/us-east-1", "amis")).as("the coverage is read as before").isEqualTo(400);
        assertThat(PriorRun.NONE.durationSeconds()).isNaN();
    }

    @Test
    void theOutputDirectorysMapAndTheKeptRunsLatestComeFirst(@TempDir Path dir) throws Exception {
        assertThat(PriorRun.read(dir)).isSameAs(PriorRun.NONE);
        Files.writeString(dir.resolve("inventory-map.json"), MAP);
        assertThat(PriorRun.read(dir).assets("aws/111/us-east-1", "amis")).isEqualTo(400);
        Path run = Files.createDirectories(dir.resolve("runs/r1"));
        Files.writeString(run.resolve("inventory-map.json"), MAP.replace("400", "12"));
        Files.createSymbolicLink(dir.resolve("runs/latest"), Path.of("r1"));
        PriorRun p = PriorRun.read(dir);
        assertThat(p.assets("aws/111/us-east-1", "amis")).isEqualTo(12);
        assertThat(p.source()).isEqualTo(run.resolve("inventory-map.json"));
    }

    /** What the previous-map reader logs while {@code body} runs. */
    private static String logged(Runnable body) {
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> log =
                new ch.qos.logback.core.read.ListAppender<>();
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("cloudg.run");
        ch.qos.logback.classic.Level level = logger.getLevel();
        logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
        log.start();
        logger.addAppender(log);
        try {
            body.run();
        } finally {
            logger.detachAppender(log);
            logger.setLevel(level);
        }
        return String.join("\n", log.list.stream().map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList());
    }

    @Test
    void aSymlinkedMapIsNotFollowedIntoAnotherFileAndNothingOfThatFileIsLogged(@TempDir Path dir, @TempDir Path elsewhere)
            throws Exception {
        Path secret = Files.writeString(elsewhere.resolve("secret.txt"), "root:$6$hunter2:19000:0:99999:7:::\n");
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.createSymbolicLink(out.resolve("inventory-map.json"), secret);
        String log = logged(() -> assertThat(PriorRun.read(out)).isSameAs(PriorRun.NONE));
        assertThat(log).contains("is a symbolic link").doesNotContain("hunter2", "root:");

        // a symlinked map of another output directory is not read either, even when it is a map
        Path otherMap = Files.writeString(elsewhere.resolve("inventory-map.json"), MAP);
        Files.delete(out.resolve("inventory-map.json"));
        Files.createSymbolicLink(out.resolve("inventory-map.json"), otherMap);
        assertThat(PriorRun.read(out)).isSameAs(PriorRun.NONE);

        // nor through runs/latest naming a way out, nor a run directory that is a link out of the directory
        Files.delete(out.resolve("inventory-map.json"));
        Files.createDirectories(out.resolve("runs"));
        Files.writeString(out.resolve("runs/latest"), "../../" + elsewhere.getFileName() + "\n");
        Files.createSymbolicLink(out.resolve("runs/r1"), elsewhere);
        log = logged(() -> assertThat(PriorRun.read(out)).isSameAs(PriorRun.NONE));
        Files.delete(out.resolve("runs/latest"));
        Files.createSymbolicLink(out.resolve("runs/latest"), Path.of("r1"));
        Files.writeString(elsewhere.resolve("inventory-map.json"), "root:$6$hunter2:19000:0:99999:7:::\n");
        log += logged(() -> assertThat(PriorRun.read(out)).isSameAs(PriorRun.NONE));
        assertThat(log).contains("once its links are followed").doesNotContain("hunter2", "root:");
    }

    @Test
    void aMapThatIsNotJsonIsReportedWithoutItsContent(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("inventory-map.json"), "password=hunter2\n");
        String log = logged(() -> assertThat(PriorRun.read(dir)).isSameAs(PriorRun.NONE));
        assertThat(log).contains("cannot be read (not a cloudg map: unreadable at line 1").doesNotContain("hunter2", "password");
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

    /** Cloud Control's sweep makes a ListResources per type even where it finds nothing (a first guess of 1 was 16x low). */
    @Test
    void cloudControlsSweepListsEachOfItsTypes() {
        int types = io.cloudg.aws.AwsProvider.DEFAULT_CLOUDCONTROL_TYPES.size();
        CallShape sweep = CallShapes.of("aws", "cloudcontrol");
        assertThat(sweep.service()).isEqualTo(io.cloudg.aws.AwsProvider.serviceOf("cloudcontrol"));
        assertThat(sweep.calls(0)).isEqualTo(types);
        assertThat(sweep.calls(3)).isEqualTo(types);
        assertThat(CallShapes.of("aws", "tagging").calls(0)).as("a plain listing").isEqualTo(1);
    }

    /** A run's configuration names the sweep's types ({@code aws.cloudcontrol_types}): its estimates count those. */
    @Test
    void aConfiguredSweepListsTheConfiguredTypes() {
        io.cloudg.CloudGConfig c = io.cloudg.CloudGConfig.fromYaml(
                "aws: {cloudcontrol_types: [AWS::Events::Rule, AWS::Kinesis::Stream]}");
        CallEstimates e = new CallEstimates(PriorRun.NONE, c.callShapes());
        assertThat(e.expected("aws", "111", "us-east-1", "cloudcontrol")).isEqualTo(2);
        assertThat(e.shape("aws", "amis")).as("the other shapes are the class path's").isEqualTo(CallShapes.of("aws", "amis"));
        assertThat(CallShapes.of("aws", "cloudcontrol").listings()).as("the defaults are unchanged")
                .isEqualTo(io.cloudg.aws.AwsProvider.DEFAULT_CLOUDCONTROL_TYPES.size());
        assertThat(new CallEstimates(PriorRun.NONE, io.cloudg.CloudGConfig.fromYaml("aws: {}").callShapes())
                .expected("aws", "111", "us-east-1", "cloudcontrol")).as("none configured: the defaults")
                .isEqualTo(io.cloudg.aws.AwsProvider.DEFAULT_CLOUDCONTROL_TYPES.size());
    }
}
