package io.cloudg.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.testkit.MapSchema;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFilesTest {
    @TempDir
    Path out;

    static Asset asset(String id) {
        return new Asset("aws", "111111111111", "us-east-1", "ec2", "AWS::EC2::VPC", id, "n-" + id, null,
                Map.of("env", "prod"), Map.of("cidr", "10.0.0.0/16"));
    }

    static final List<CoverageRecord> COVERAGE = List.of(new CoverageRecord("aws", "111111111111", "us-east-1",
            List.of(ServiceCoverage.success("vpc", 2), new ServiceCoverage("subnets", CoverageStatus.PARTIAL, 0, "throttled: gave up"))));

    private RunFiles.Written run(String id, int keep, String... assetIds) {
        return io.cloudg.testkit.TestRuns.write(out, id, keep, java.util.Arrays.stream(assetIds).map(RunFilesTest::asset).toList(),
                COVERAGE);
    }

    @Test
    void aRunWritesItsDirectoryTheTopLevelLinksAndLatest() throws Exception {
        RunFiles.Written w = run("20260101-000000-aaaaaa", 5, "vpc-1", "vpc-2");

        assertThat(w.mapFile()).isEqualTo(out.resolve("inventory-map.json"));
        assertThat(w.runDir()).isEqualTo(out.resolve("runs/20260101-000000-aaaaaa"));
        for (String f : List.of("inventory-map.json", "assets.jsonl", "coverage.jsonl")) {
            assertThat(Files.isSameFile(out.resolve(f), w.runDir().resolve(f))).as(f + " is linked, not copied").isTrue();
        }
        assertThat(Files.readAllLines(out.resolve("assets.jsonl"))).hasSize(2).allMatch(l -> l.startsWith("{\"provider\":\"aws\""));
        assertThat(Files.readAllLines(out.resolve("coverage.jsonl"))).containsExactly(
                "{\"provider\":\"aws\",\"account_id\":\"111111111111\",\"region\":\"us-east-1\",\"service\":\"vpc\",\"status\":\"SUCCESS\",\"asset_count\":2,\"error\":null}",
                "{\"provider\":\"aws\",\"account_id\":\"111111111111\",\"region\":\"us-east-1\",\"service\":\"subnets\",\"status\":\"PARTIAL\",\"asset_count\":0,\"error\":\"throttled: gave up\"}");
        assertThat(RunFiles.latest(out)).contains("20260101-000000-aaaaaa");
        assertThat(Files.isSymbolicLink(out.resolve("runs/latest"))).isTrue();
        MapSchema.assertEveryMapValid(out);
    }

    @Test
    void theNewestRunIsLatestAndOnlyKeepRunsStay() {
        run("20260101-000000-aaaaaa", 2, "vpc-1");
        run("20260102-000000-bbbbbb", 2, "vpc-1", "vpc-2");
        RunFiles.Written third = run("20260103-000000-cccccc", 2, "vpc-3");

        assertThat(RunFiles.runIds(out)).containsExactly("20260102-000000-bbbbbb", "20260103-000000-cccccc");
        assertThat(RunFiles.latest(out)).contains("20260103-000000-cccccc");
        try (MapReader r = MapReader.open(out)) {
            assertThat(r.runId()).isEqualTo("20260103-000000-cccccc");
            List<String> ids = new ArrayList<>();
            r.assets().forEachRemaining(a -> ids.add(a.id()));
            assertThat(ids).containsExactly("vpc-3");
        }
        try (MapReader r = MapReader.open(out.resolve("runs/20260102-000000-bbbbbb"))) {
            assertThat(r.summary().path("assets").asLong()).isEqualTo(2);
            assertThat(r.coverage()).isEqualTo(COVERAGE);
        }
        assertThat(third.runDir()).exists();
    }

    @Test
    void theRetentionKeepsTheNewestRunsByWhenTheyFinishedNotByTheirIds() throws Exception {
        // a fleet Job's run ids are UUIDs: their order says nothing of time
        String first = "f0d7a6e2-7b7e-4d7a-9f64-1c7c1f0b9e01";
        String second = "0a1b2c3d-0000-4000-8000-000000000002";
        String third = "9c3e8f00-1111-4111-8111-000000000003";
        String fourth = "3b5d7f90-2222-4222-8222-000000000004";
        io.cloudg.testkit.TestRuns.write(out, first, "2026-03-01T10:00:00Z", 3, List.of(asset("vpc-1")), COVERAGE);
        io.cloudg.testkit.TestRuns.write(out, second, "2026-03-01T11:00:00Z", 3, List.of(asset("vpc-1")), COVERAGE);
        io.cloudg.testkit.TestRuns.write(out, third, "2026-03-01T12:00:00Z", 3, List.of(asset("vpc-1")), COVERAGE);
        assertThat(RunFiles.runIds(out)).as("oldest first").containsExactly(first, second, third);

        io.cloudg.testkit.TestRuns.write(out, fourth, "2026-03-01T13:00:00Z", 3, List.of(asset("vpc-1")), COVERAGE);
        assertThat(RunFiles.runIds(out)).as("the oldest went, whatever its id").containsExactly(second, third, fourth);
        assertThat(RunFiles.latest(out)).contains(fourth);
    }

    @Test
    void aRunWhoseMapSaysNoTimeIsOrderedByItsDirectorysTime() throws Exception {
        run("b-run", 5, "vpc-1");
        run("a-run", 5, "vpc-1");
        Path b = out.resolve("runs/b-run");
        Path a = out.resolve("runs/a-run");
        Files.writeString(a.resolve("inventory-map.json"), "not json");
        Files.delete(b.resolve("inventory-map.json"));
        Files.setLastModifiedTime(a, java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2026-02-01T00:00:00Z")));
        Files.setLastModifiedTime(b, java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(RunFiles.runIds(out)).containsExactly("b-run", "a-run");
    }

    @Test
    void aDirectoryWithoutTopLevelMapIsReadThroughLatest() throws Exception {
        run("20260101-000000-aaaaaa", 5, "vpc-1");
        Files.delete(out.resolve("inventory-map.json"));
        assertThat(RunFiles.mapFile(out)).isEqualTo(out.resolve("runs/20260101-000000-aaaaaa/inventory-map.json"));
    }

    @Test
    void latestCanBeAFileNamingTheRun() throws Exception {
        run("20260101-000000-aaaaaa", 5, "vpc-1");
        Files.delete(out.resolve("runs/latest"));
        Files.writeString(out.resolve("runs/latest"), "20260101-000000-aaaaaa\n");
        assertThat(RunFiles.latest(out)).isEqualTo(Optional.of("20260101-000000-aaaaaa"));
        Files.delete(out.resolve("inventory-map.json"));
        try (MapReader r = MapReader.open(out)) {
            assertThat(r.runId()).isEqualTo("20260101-000000-aaaaaa");
        }
    }

    @Test
    void nothingToReadIsOneLineNamingThePath() {
        assertThatThrownBy(() -> MapReader.open(out.resolve("nope"))).isInstanceOf(UncheckedIOException.class)
                .hasMessage("no such file or directory: " + out.resolve("nope"));
        assertThatThrownBy(() -> MapReader.open(out)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("no inventory-map.json in " + out);
    }

    @Test
    void aFileThatIsNotAMapIsRefused() throws Exception {
        Files.writeString(out.resolve("x.json"), "{\"format\": \"something/1\"}");
        assertThatThrownBy(() -> MapReader.open(out.resolve("x.json"))).hasMessageContaining("is not a cloudg inventory map");
    }

    /** The files whose names start with a dot anywhere under {@code out}: what a write leaves aside. */
    private List<Path> hidden() throws Exception {
        try (java.util.stream.Stream<Path> all = Files.walk(out)) {
            return all.filter(p -> p.getFileName().toString().startsWith(".")).toList();
        }
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    @Test
    void aRunThatCannotBeKeptUnderRunsIsWrittenIntoTheOutputDirectoryAndSaysWhy() throws Exception {
        Files.writeString(out.resolve("runs"), "not a directory\n"); // even root cannot write under a regular file
        RunFiles.Written w = run("20260101-000000-aaaaaa", 5, "vpc-1", "vpc-2");

        assertThat(w.mapFile()).isEqualTo(out.resolve("inventory-map.json"));
        assertThat(w.runDir()).isNull();
        assertThat(w.problem()).startsWith("the run could not be kept under " + out.resolve("runs") + " (cannot write "
                + out.resolve("runs/20260101-000000-aaaaaa/inventory-map.json") + ": Not a directory")
                .endsWith("; the map is in " + out.resolve("inventory-map.json"));
        try (MapReader r = MapReader.open(out)) {
            assertThat(r.runId()).isEqualTo("20260101-000000-aaaaaa");
            assertThat(r.coverage()).isEqualTo(COVERAGE);
        }
        assertThat(Files.readAllLines(out.resolve("assets.jsonl"))).hasSize(2);
        assertThat(Files.readAllLines(out.resolve("coverage.jsonl"))).hasSize(2);
        assertThat(hidden()).as("no temporary file left").isEmpty();
    }

    @Test
    void aRunWhoseTopLevelFilesCannotBeReplacedIsCompleteInItsDirectoryAndSaysWhere() throws Exception {
        run("20260101-000000-aaaaaa", 5, "vpc-1");
        Files.delete(out.resolve("inventory-map.json"));
        Files.createDirectories(out.resolve("inventory-map.json/in-the-way"));
        RunFiles.Written w = run("20260102-000000-bbbbbb", 5, "vpc-1", "vpc-2");

        Path dir = out.resolve("runs/20260102-000000-bbbbbb");
        assertThat(w.mapFile()).isEqualTo(dir.resolve("inventory-map.json"));
        assertThat(w.runDir()).isEqualTo(dir);
        assertThat(w.problem()).startsWith("cannot write " + out.resolve("inventory-map.json") + ": ")
                .endsWith("; the run is complete in " + dir + " (map: " + dir.resolve("inventory-map.json") + ")");
        try (MapReader r = MapReader.open(w.mapFile())) {
            assertThat(r.runId()).isEqualTo("20260102-000000-bbbbbb");
        }
        assertThat(RunFiles.latest(out)).contains("20260102-000000-bbbbbb");
        assertThat(hidden()).as("no temporary file left").isEmpty();
    }

    @Test
    void aRunThatCanBeWrittenNowhereKeepsItsCompleteSpoolAndNamesIt() throws Exception {
        Files.writeString(out.resolve("runs"), "not a directory\n");
        Files.createDirectories(out.resolve("inventory-map.json/in-the-way"));
        Path lastResort = Files.writeString(out.resolve("tmp"), "not a directory either\n").resolve("tmp");
        AssetSpool spool = AssetSpool.temporary(out);
        List.of("vpc-1", "vpc-2", "vpc-3").forEach(id -> spool.accept(asset(id)));

        assertThatThrownBy(() -> RunFiles.write(out, 5, io.cloudg.testkit.TestRuns.runBlock("20260101-000000-aaaaaa", "2026-01-01T00:01:00Z"),
                Summary.of(spool.count(), COVERAGE, 60, null), COVERAGE, null, spool, lastResort))
                .isInstanceOfSatisfying(RunFiles.NotWrittenException.class, e -> {
                    assertThat(e.getMessage()).startsWith("the run could not be kept under " + out.resolve("runs"))
                            .contains("Not a directory", "; nor in " + out + " (cannot write " + out.resolve("inventory-map.json"),
                                    "; nor in " + lastResort + " (")
                            .endsWith("; the run's assets are kept, complete, in " + spool.file());
                    assertThat(e.keptAssets()).isEqualTo(spool.file());
                });
        assertThat(Files.readAllLines(spool.file())).as("complete: every line flushed").hasSize(3);
        assertThat(hidden()).as("only the spool is left, named in the message").containsExactly(spool.file());
    }

    @Test
    void aDirectoryTheUserMayNotWriteIsNamedWithTheSystemsReason() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(root(), "running as root: permissions do not deny root a write");
        Path runs = Files.createDirectories(out.resolve("runs"));
        runs.toFile().setWritable(false, false);
        try {
            RunFiles.Written w = run("20260101-000000-aaaaaa", 5, "vpc-1");
            assertThat(w.problem()).contains("Permission denied").endsWith("; the map is in " + out.resolve("inventory-map.json"));
        } finally {
            runs.toFile().setWritable(true, false);
        }
    }
}
