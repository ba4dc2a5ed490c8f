package io.cloudg.diff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.destination.Destinations;
import io.cloudg.destination.RunEnd;
import io.cloudg.destination.RunStart;
import io.cloudg.destination.postgres.PostgresRuns;
import io.cloudg.destination.postgres.PostgresSpec;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.RunFiles;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.cloudg.testkit.TestPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MapDiffTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Asset bucket(String account, String id, String env, boolean pub) {
        return new Asset("aws", account, "us-east-1", "s3", "AWS::S3::Bucket", id, id, "arn:aws:s3:::" + id,
                Map.of("env", env), Map.of("acl_public", pub));
    }

    static List<CoverageRecord> coverage(CoverageStatus subnets, String error) {
        return List.of(new CoverageRecord("aws", "111111111111", "us-east-1",
                List.of(ServiceCoverage.success("s3_buckets", 3), new ServiceCoverage("subnets", subnets, 0, error))));
    }

    private Path map(String runId, List<Asset> assets, List<CoverageRecord> coverage) {
        Path out = dir.resolve(runId);
        io.cloudg.testkit.TestRuns.write(out, runId, 5, assets, coverage);
        return out;
    }

    static final List<Asset> OLD = List.of(bucket("111111111111", "a", "prod", false), bucket("111111111111", "b", "prod", false),
            bucket("111111111111", "c", "prod", false), bucket("222222222222", "a", "prod", false));
    static final List<Asset> NEW = List.of(bucket("222222222222", "a", "prod", false), bucket("111111111111", "d", "prod", false),
            bucket("111111111111", "b", "dev", true), bucket("111111111111", "a", "prod", false));

    private static final class Recorder implements MapDiff.Listener {
        final List<String> events = new ArrayList<>();

        @Override
        public void added(Asset a) {
            events.add("+ " + a.key());
        }

        @Override
        public void removed(Asset a) {
            events.add("- " + a.key());
        }

        @Override
        public void changed(Asset before, Asset after, Map<String, MapDiff.FieldChange> fields) {
            events.add("~ " + after.key() + " " + fields);
        }

        @Override
        public void coverage(MapDiff.CoverageChange c) {
            events.add(c.movement() + " " + c.id());
        }
    }

    @Test
    void addedRemovedChangedWithTheFieldsAndCoverageThatGotWorse() {
        Path a = map("20260101-000000-aaaaaa", OLD, coverage(CoverageStatus.SUCCESS, null));
        Path b = map("20260102-000000-bbbbbb", NEW, coverage(CoverageStatus.FAILED, "AccessDenied: no"));
        Recorder r = new Recorder();
        MapDiff.Counts c;
        try (DiffSide x = DiffSide.ofMap(a, dir, 1 << 20); DiffSide y = DiffSide.ofMap(b, dir, 1 << 20)) {
            c = MapDiff.compare(x, y, r);
        }
        assertThat(r.events).containsExactly(
                "~ aws|111111111111|us-east-1|AWS::S3::Bucket|b {tags.env=FieldChange[before=prod, after=dev], "
                        + "attributes.acl_public=FieldChange[before=false, after=true]}",
                "- aws|111111111111|us-east-1|AWS::S3::Bucket|c",
                "+ aws|111111111111|us-east-1|AWS::S3::Bucket|d",
                "WORSE aws/111111111111/us-east-1/subnets");
        assertThat(c).isEqualTo(new MapDiff.Counts(1, 1, 1, 2, 1, 0, 0, 0));
        assertThat(c.any()).isTrue();
    }

    @Test
    void aRunComparedWithItselfHasNoChange() {
        Path a = map("20260101-000000-aaaaaa", OLD, coverage(CoverageStatus.PARTIAL, "throttled: x"));
        try (DiffSide x = DiffSide.ofMap(a, dir, 1 << 20); DiffSide y = DiffSide.ofMap(a.resolve("inventory-map.json"), dir, 1 << 20)) {
            MapDiff.Counts c = MapDiff.compare(x, y, new Recorder());
            assertThat(c.any()).isFalse();
            assertThat(c.unchanged()).isEqualTo(4);
        }
    }

    @Test
    void theExternalSortSpillsAndStillSortsEverything() throws Exception {
        List<Asset> many = new ArrayList<>();
        Random rnd = new Random(7);
        for (int i = 0; i < 5000; i++) {
            many.add(bucket(String.format("%012d", rnd.nextInt(50)), "b-" + rnd.nextInt(1_000_000) + "-\u00e9\ud83d\ude00" + i, "x", false));
        }
        List<Asset> expected = new ArrayList<>(many);
        expected.sort(AssetOrder.BY_KEY);
        Collections.shuffle(many, rnd);
        try (SortedAssets s = new SortedAssets(many.iterator(), dir, 64 * 1024)) {
            List<Asset> got = new ArrayList<>();
            s.forEachRemaining(got::add);
            assertThat(s.spills()).isGreaterThan(5);
            assertThat(got).isEqualTo(expected);
        }
        try (var files = java.nio.file.Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith(".cloudg-sort-"))).isEmpty();
        }
    }

    @Test
    void codePointOrderIsNotUtf16Order() {
        String bmpHigh = "\uffe0";
        String astral = "\ud83d\ude00";
        assertThat(bmpHigh.compareTo(astral)).as("UTF-16 order").isPositive();
        assertThat(AssetOrder.compare(bmpHigh, astral)).as("code point order, as COLLATE \"C\"").isNegative();
    }

    @Test
    void theReportIsTextForPeopleAndJsonForPrograms() throws Exception {
        Path a = map("20260101-000000-aaaaaa", OLD, coverage(CoverageStatus.SUCCESS, null));
        Path b = map("20260102-000000-bbbbbb", NEW, coverage(CoverageStatus.FAILED, "AccessDenied: no"));
        try (DiffSide x = DiffSide.ofMap(a, dir, 1 << 20); DiffSide y = DiffSide.ofMap(b, dir, 1 << 20);
             DiffReport report = new DiffReport(dir)) {
            MapDiff.Counts c = MapDiff.compare(x, y, report);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            report.writeText(new PrintStream(text, true, StandardCharsets.UTF_8), x, y, c, 1);
            assertThat(text.toString(StandardCharsets.UTF_8)).contains(
                    "Assets: 1 added, 1 removed, 1 changed, 2 unchanged\n",
                    "Coverage: 1 worse, 0 better, 0 appeared, 0 disappeared\n",
                    "  worse       aws/111111111111/us-east-1/subnets SUCCESS -> FAILED: AccessDenied: no\n",
                    "  + aws/111111111111/us-east-1 AWS::S3::Bucket d\n",
                    "  ~ aws/111111111111/us-east-1 AWS::S3::Bucket b: tags.env prod -> dev; attributes.acl_public false -> true\n");
            StringWriter w = new StringWriter();
            report.writeJson(w, x, y, c);
            JsonNode j = JSON.readTree(w.toString());
            assertThat(j.get("format").asText()).isEqualTo("cloudg.diff/1");
            assertThat(j.at("/old/run_id").asText()).isEqualTo("20260101-000000-aaaaaa");
            assertThat(j.at("/summary/changed").asBoolean()).isTrue();
            assertThat(j.at("/assets/added/0/id").asText()).isEqualTo("d");
            assertThat(j.at("/assets/removed/0/id").asText()).isEqualTo("c");
            assertThat(j.at("/assets/changed/0/fields/tags.env/new").asText()).isEqualTo("dev");
            assertThat(j.at("/coverage/0/movement").asText()).isEqualTo("WORSE");
            assertThat(j.at("/coverage/0/new/error").asText()).isEqualTo("AccessDenied: no");
        }
        try (var files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith(".cloudg-diff-"))).isEmpty();
        }
    }

    @Test
    void twoRunsInPostgresDiffAsTheirMapsDo() throws Exception {
        PostgresSpec pg = PostgresSpec.of("--postgres", TestPostgres.url()).withSchema(TestPostgres.freshSchema("diff"));
        writeToPostgres(pg, "run-old", OLD, coverage(CoverageStatus.SUCCESS, null));
        writeToPostgres(pg, "run-new", NEW, coverage(CoverageStatus.FAILED, "AccessDenied: no"));
        Path a = map("20260101-000000-aaaaaa", OLD, coverage(CoverageStatus.SUCCESS, null));
        Path b = map("20260102-000000-bbbbbb", NEW, coverage(CoverageStatus.FAILED, "AccessDenied: no"));

        Recorder fromFiles = new Recorder();
        try (DiffSide x = DiffSide.ofMap(a, dir, 1 << 20); DiffSide y = DiffSide.ofMap(b, dir, 1 << 20)) {
            MapDiff.compare(x, y, fromFiles);
        }
        Recorder fromDb = new Recorder();
        try (PostgresRuns runs = PostgresRuns.open(pg)) {
            assertThat(runs.find("latest").runId()).isEqualTo("run-new");
            assertThat(runs.find("previous").runId()).isEqualTo("run-old");
            try (DiffSide x = runs.side(runs.find("run-old")); DiffSide y = runs.side(runs.find("latest"))) {
                MapDiff.compare(x, y, fromDb);
            }
        }
        assertThat(fromDb.events).isEqualTo(fromFiles.events).hasSize(4);
    }

    private static void writeToPostgres(PostgresSpec pg, String runId, List<Asset> assets, List<CoverageRecord> coverage)
            throws Exception {
        Destinations d = Destinations.open(List.of(pg), new RunStart(runId, "embedded", List.of("aws"), Instant.EPOCH), 2);
        for (Asset a : assets) {
            d.accept(JSON.writeValueAsString(a));
        }
        d.finish(new RunEnd(runId, Instant.EPOCH, Map.of("id", runId), Summary.of(assets.size(), coverage, 1, null), coverage, null));
    }
}
