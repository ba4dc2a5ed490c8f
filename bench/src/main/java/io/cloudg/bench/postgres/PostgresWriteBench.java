package io.cloudg.bench.postgres;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.destination.DestinationStatus;
import io.cloudg.destination.Destinations;
import io.cloudg.destination.RunEnd;
import io.cloudg.destination.RunStart;
import io.cloudg.destination.postgres.PostgresSpec;
import io.cloudg.destination.postgres.PostgresUrl;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.inventory.Summary;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * PostgreSQL write throughput of the destination on a large map, side by side in one process against one
 * server: cloudg's path ({@code COPY} into a staging table + three set-based statements per batch) at
 * several batch sizes, for a first run (every asset new), a second identical run (every asset known,
 * unchanged) and a third with 10% of the assets changed; and, for the ratio, the naive alternative on a
 * slice of the assets: one {@code INSERT ... ON CONFLICT} per asset, autocommit. A warm-up pass (every
 * contender on up to 20,000 assets) runs first and is not measured.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.cloudg.bench.postgres.PostgresWriteBench 200000 [postgresql://user:pw@host/db]
 * </pre>
 * Without a URL it starts the embedded PostgreSQL 14 the tests use.
 */
public final class PostgresWriteBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PostgresWriteBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        EmbeddedPostgres embedded = null;
        String url;
        if (args.length > 1) {
            url = args[1];
        } else {
            embedded = EmbeddedPostgres.builder().start();
            url = "postgresql://postgres:postgres@localhost:" + embedded.getPort() + "/postgres";
        }
        try {
            System.out.printf(Locale.ROOT, "%d assets, %s%n", n, PostgresUrl.parse("url", url).display());
            List<String> lines = assets(n, 0);
            List<String> changed = assets(n, 10);
            // warm-up, not measured: the JIT, the server's caches, every batch size once
            for (int batch : new int[] {1000, 5000, 20000}) {
                String schema = "bench_warmup";
                dropSchema(url, schema);
                PostgresSpec spec = PostgresSpec.of("url", url).withSchema(schema);
                write(new PostgresSpec(spec.key(), spec.url(), schema, null, batch, spec.env()), "warm",
                        lines.subList(0, Math.min(n, 20_000)), batch);
            }
            rowByRow(url, lines.subList(0, Math.min(n, 2_000)));
            for (int batch : new int[] {1000, 5000, 20000}) {
                String schema = "bench_" + batch;
                dropSchema(url, schema);
                PostgresSpec spec = PostgresSpec.of("url", url).withSchema(schema);
                spec = new PostgresSpec(spec.key(), spec.url(), schema, null, batch, spec.env());
                double first = write(spec, "run-1", lines, batch);
                double same = write(spec, "run-2", lines, batch);
                double tenPct = write(spec, "run-3", changed, batch);
                System.out.printf(Locale.ROOT, "cloudg COPY path, batch %5d: first run %,8.0f assets/s; unchanged %,8.0f assets/s; "
                        + "10%% changed %,8.0f assets/s%n", batch, n / first, n / same, n / tenPct);
            }
            int slice = Math.min(n, 20_000);
            double naive = rowByRow(url, lines.subList(0, slice));
            System.out.printf(Locale.ROOT, "row by row (INSERT ... ON CONFLICT, autocommit), %d assets: %,8.0f assets/s%n", slice,
                    slice / naive);
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    /** {@code n} assets shaped like a map's (tags, a few attributes); every {@code changedPct}th changed. */
    static List<String> assets(int n, int changedPct) throws Exception {
        List<String> out = new ArrayList<>(n);
        String[] types = {"AWS::EC2::Instance", "AWS::EC2::Volume", "AWS::EC2::Snapshot", "AWS::S3::Bucket", "AWS::IAM::Role"};
        for (int i = 0; i < n; i++) {
            String account = String.format(Locale.ROOT, "%012d", 100_000_000_000L + i % 500);
            String region = i % 3 == 0 ? "us-east-1" : i % 3 == 1 ? "eu-west-1" : "ap-southeast-2";
            Map<String, String> tags = new TreeMap<>(Map.of("Name", "res-" + i, "env", i % 2 == 0 ? "prod" : "dev",
                    "team", "team-" + i % 40));
            if (changedPct > 0 && i % (100 / changedPct) == 0) {
                tags.put("env", "changed");
            }
            Map<String, Object> attributes = Map.of("size_gb", i % 500, "encrypted", i % 2 == 0, "state", "available");
            String id = "res-" + Long.toHexString(0x1000000000L + i);
            out.add(JSON.writeValueAsString(new Asset("aws", account, region, "ec2", types[i % types.length], id, "res-" + i,
                    "arn:aws:ec2:" + region + ":" + account + ":x/" + id, tags, attributes)));
        }
        return out;
    }

    static double write(PostgresSpec spec, String runId, List<String> lines, int batch) {
        List<CoverageRecord> coverage = List.of(new CoverageRecord("aws", "100000000000", "us-east-1",
                List.of(ServiceCoverage.success("instances", lines.size()))));
        long t0 = System.nanoTime();
        Destinations d = Destinations.open(List.of(spec), new RunStart(runId, "embedded", List.of("aws"), Instant.now()), batch);
        lines.forEach(d::accept);
        List<DestinationStatus> s = d.finish(new RunEnd(runId, Instant.now(), Map.of("id", runId),
                Summary.of(lines.size(), coverage, 1, null), coverage, null));
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (s.get(0).failed() || s.get(0).assetsWritten() != lines.size()) {
            throw new IllegalStateException("the write failed: " + s);
        }
        return seconds;
    }

    static double rowByRow(String url, List<String> lines) throws Exception {
        PostgresUrl u = PostgresUrl.parse("url", url);
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password())) {
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS bench_naive");
                st.execute("CREATE TABLE bench_naive (provider text, account_id text, region text, type text, id text, "
                        + "service text, name text, arn text, tags jsonb, attributes jsonb, "
                        + "PRIMARY KEY (provider, account_id, region, type, id))");
            }
            long t0 = System.nanoTime();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO bench_naive VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb) "
                    + "ON CONFLICT (provider, account_id, region, type, id) DO UPDATE SET tags = EXCLUDED.tags, "
                    + "attributes = EXCLUDED.attributes")) {
                for (String line : lines) {
                    Asset a = JSON.readValue(line, Asset.class);
                    ps.setString(1, a.provider());
                    ps.setString(2, a.accountId());
                    ps.setString(3, a.region());
                    ps.setString(4, a.type());
                    ps.setString(5, a.id());
                    ps.setString(6, a.service());
                    ps.setString(7, a.name());
                    ps.setString(8, a.arn());
                    ps.setString(9, JSON.writeValueAsString(a.tags()));
                    ps.setString(10, JSON.writeValueAsString(a.attributes()));
                    ps.executeUpdate();
                }
            }
            return (System.nanoTime() - t0) / 1e9;
        }
    }

    static void dropSchema(String url, String schema) throws Exception {
        PostgresUrl u = PostgresUrl.parse("url", url);
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password()); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
