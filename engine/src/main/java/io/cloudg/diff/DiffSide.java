package io.cloudg.diff;

import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageEntry;
import io.cloudg.inventory.MapReader;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * One side of a diff: a run's assets in {@link AssetOrder} (streamed, never all in memory) and its coverage
 * entries by id. Read from a map file or run directory ({@link #ofMap}) or from PostgreSQL
 * ({@code io.cloudg.destination.postgres.PostgresRuns}). Close it to release files and connections.
 *
 * @param label what it is, for people: the map's path, or {@code postgres run <id>}
 * @param runId the run's id (null when the map has none)
 * @param finishedAt when the run finished, as written (null when unknown)
 */
public record DiffSide(String label, String runId, String finishedAt, Iterator<Asset> assets,
                       Map<String, CoverageEntry> coverage, AutoCloseable resources) implements AutoCloseable {

    /** Coverage entries by {@link CoverageEntry#id()}. */
    public static Map<String, CoverageEntry> byId(Collection<CoverageEntry> entries) {
        Map<String, CoverageEntry> m = new TreeMap<>();
        entries.forEach(e -> m.put(e.id(), e));
        return m;
    }

    /** The map at {@code path} (a map file, a run directory or an output directory), sorted in {@code tmp}. */
    public static DiffSide ofMap(Path path, Path tmp, long budgetBytes) {
        MapReader r = MapReader.open(path);
        try {
            Map<String, CoverageEntry> coverage = byId(CoverageEntry.flatten(r.coverage()));
            SortedAssets sorted = new SortedAssets(r.assets(), tmp, budgetBytes);
            r.close();
            return new DiffSide(r.file().toString(), r.runId(), r.run().path("finished_at").asText(null), sorted, coverage,
                    sorted);
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            resources.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("closing " + label + " failed: " + e.getMessage(), e);
        }
    }
}
