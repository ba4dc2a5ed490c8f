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
 * slice of the assets: the same tables written one asset at a time (three statements and a commit each). A warm-up pass (every
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
            System.out.printf(Locale.ROOT, "%d assets, %s (%s)%n", n, PostgresUrl.parse("url", url).display(), durability(url));
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
            System.out.printf(Locale.ROOT, "row by row (the same three tables, 3 statements + a commit per asset), first run of "
                    + "%d assets: %,8.0f assets/s%n", slice, slice / naive);
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

    /**
     * The same tables written one asset at a time, autocommit: upsert the asset, add its version, record it
     * in the run (three statements and a commit per asset), into a schema cloudg created.
     */
    static double rowByRow(String url, List<String> lines) throws Exception {
        String schema = "bench_row";
        dropSchema(url, schema);
        PostgresSpec spec = PostgresSpec.of("url", url).withSchema(schema);
        spec.connectMigrated().close();
        PostgresUrl u = PostgresUrl.parse("url", url);
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password())) {
            long runSeq;
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO " + schema + ".runs (run_id, mode, providers, started_at, state) "
                        + "VALUES ('row', 'embedded', '{aws}', now(), 'running')");
                java.sql.ResultSet r = st.executeQuery("SELECT run_seq FROM " + schema + ".runs WHERE run_id = 'row'");
                r.next();
                runSeq = r.getLong(1);
            }
            long t0 = System.nanoTime();
            try (PreparedStatement up = c.prepareStatement("INSERT INTO " + schema + ".assets (provider, account_id, region, "
                    + "type, id, service, name, arn, tags, attributes, digest, first_seen_run, last_seen_run) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, 'row', 'row') ON CONFLICT (provider, account_id, "
                    + "region, type, id) DO UPDATE SET tags = EXCLUDED.tags, attributes = EXCLUDED.attributes, "
                    + "digest = EXCLUDED.digest, last_seen_run = EXCLUDED.last_seen_run RETURNING asset_id");
                 PreparedStatement ver = c.prepareStatement("INSERT INTO " + schema + ".asset_versions (asset_id, digest, "
                    + "service, name, arn, tags, attributes, first_seen_run) VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, 'row') "
                    + "ON CONFLICT (asset_id, digest) DO UPDATE SET digest = EXCLUDED.digest RETURNING version_id");
                 PreparedStatement ra = c.prepareStatement("INSERT INTO " + schema + ".run_assets (run_seq, asset_id, version_id) "
                    + "VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
                for (String line : lines) {
                    Asset a = JSON.readValue(line, Asset.class);
                    String tags = JSON.writeValueAsString(a.tags());
                    String attributes = JSON.writeValueAsString(a.attributes());
                    String digest = Integer.toHexString((tags + attributes).hashCode());
                    up.setString(1, a.provider());
                    up.setString(2, a.accountId());
                    up.setString(3, a.region());
                    up.setString(4, a.type());
                    up.setString(5, a.id());
                    up.setString(6, a.service());
                    up.setString(7, a.name());
                    up.setString(8, a.arn());
                    up.setString(9, tags);
                    up.setString(10, attributes);
                    up.setString(11, digest);
                    long assetId;
                    try (java.sql.ResultSet r = up.executeQuery()) {
                        r.next();
                        assetId = r.getLong(1);
                    }
                    ver.setLong(1, assetId);
                    ver.setString(2, digest);
                    ver.setString(3, a.service());
                    ver.setString(4, a.name());
                    ver.setString(5, a.arn());
                    ver.setString(6, tags);
                    ver.setString(7, attributes);
                    long versionId;
                    try (java.sql.ResultSet r = ver.executeQuery()) {
                        r.next();
                        versionId = r.getLong(1);
                    }
                    ra.setLong(1, runSeq);
                    ra.setLong(2, assetId);
                    ra.setLong(3, versionId);
                    ra.executeUpdate();
                }
            }
            return (System.nanoTime() - t0) / 1e9;
        }
    }

    /** The server's durability settings, which decide what a commit costs. */
    static String durability(String url) throws Exception {
        PostgresUrl u = PostgresUrl.parse("url", url);
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password()); Statement st = c.createStatement()) {
            StringBuilder b = new StringBuilder();
            for (String k : new String[] {"server_version", "fsync", "synchronous_commit", "shared_buffers"}) {
                java.sql.ResultSet r = st.executeQuery("SHOW " + k);
                r.next();
                b.append(k).append('=').append(r.getString(1)).append(' ');
            }
            return b.toString().trim();
        }
    }

    static void dropSchema(String url, String schema) throws Exception {
        PostgresUrl u = PostgresUrl.parse("url", url);
        try (Connection c = DriverManager.getConnection(u.jdbcUrl(), u.user(), u.password()); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
