package io.cloudg.inventory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.cloudg.resilience.report.ThrottlingReport;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a run's files go, and where a reader finds them again. An output directory holds:
 * <pre>
 * inventory-map.json   the newest run's map       (a hard link to runs/&lt;id&gt;/inventory-map.json)
 * assets.jsonl         its assets, one per line   (likewise)
 * coverage.jsonl       its coverage entries       (likewise)
 * runs/&lt;run-id&gt;/       every kept run: the same three files
 * runs/latest          a symbolic link to the newest run's directory (where links cannot be made: a file
 *                      holding its id)
 * </pre>
 * Each file appears atomically (written aside, then renamed), so a reader never sees half a run; the
 * top-level files are links, not copies, so keeping runs costs no second write of a large map. After a
 * run, only the newest {@code keep} run directories stay (by run id, which sorts by start time).
 */
public final class RunFiles {
    public static final String RUNS = "runs";
    public static final String LATEST = "latest";
    public static final String ASSETS = "assets.jsonl";
    public static final String COVERAGE = "coverage.jsonl";
    /** Run directories kept by default ({@code keep_runs}, {@code --keep}). */
    public static final int DEFAULT_KEEP = 5;

    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final ObjectWriter LINE = new ObjectMapper().writer();

    /** What {@link #write} wrote: the top-level map and the run's directory. */
    public record Written(Path mapFile, Path runDir) {
    }

    private RunFiles() {
    }

    /**
     * Writes a finished run into {@code out}: its directory under {@code runs/}, the top-level links,
     * {@code runs/latest}, then removes the run directories beyond the newest {@code keep}.
     */
    public static Written write(Path out, int keep, Map<String, Object> run, Summary summary, List<CoverageRecord> coverage,
                                ThrottlingReport throttling, AssetSpool assets) {
        if (keep < 1) {
            throw new IllegalArgumentException("keep must be at least 1, but was " + keep);
        }
        String runId = String.valueOf(run.get("id"));
        if (!RUN_ID.matcher(runId).matches() || runId.equals(LATEST)) {
            throw new IllegalArgumentException("not a run id: " + runId);
        }
        Path dir = out.resolve(RUNS).resolve(runId);
        InventoryMapWriter.write(dir, run, summary, coverage, throttling, assets);
        writeCoverage(dir, coverage);
        assets.flush();
        publish(assets.file(), dir.resolve(ASSETS));
        pointLatest(out, runId);
        for (String name : List.of(InventoryMapWriter.FILE_NAME, ASSETS, COVERAGE)) {
            publish(dir.resolve(name), out.resolve(name));
        }
        prune(out, keep, runId);
        return new Written(out.resolve(InventoryMapWriter.FILE_NAME), dir);
    }

    private static void writeCoverage(Path dir, List<CoverageRecord> coverage) {
        Path target = dir.resolve(COVERAGE);
        try {
            Path tmp = Files.createTempFile(dir, ".coverage-", ".jsonl.tmp");
            try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                for (CoverageEntry e : CoverageEntry.flatten(coverage)) {
                    w.write(LINE.writeValueAsString(e));
                    w.write('\n');
                }
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /** Makes {@code target} the same file as {@code source} (a hard link; a copy where links cannot be made), atomically. */
    static void publish(Path source, Path target) {
        try {
            Path parent = target.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path tmp = parent.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + "."
                    + System.nanoTime() + ".tmp");
            try {
                Files.createLink(tmp, source);
            } catch (UnsupportedOperationException | FileSystemException e) {
                Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    private static void pointLatest(Path out, String runId) {
        Path runs = out.resolve(RUNS);
        Path latest = runs.resolve(LATEST);
        Path tmp = runs.resolve(".latest." + ProcessHandle.current().pid() + "." + System.nanoTime() + ".tmp");
        try {
            try {
                Files.createSymbolicLink(tmp, Path.of(runId));
            } catch (UnsupportedOperationException | FileSystemException e) {
                Files.writeString(tmp, runId + "\n", StandardCharsets.UTF_8);
            }
            Files.move(tmp, latest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot point " + latest + " at run " + runId + ": " + e.getMessage(), e);
        }
    }

    /** The id of the newest run in {@code out}, if {@code runs/latest} names one. */
    public static Optional<String> latest(Path out) {
        Path latest = out.resolve(RUNS).resolve(LATEST);
        try {
            if (Files.isSymbolicLink(latest)) {
                return Optional.of(Files.readSymbolicLink(latest).getFileName().toString());
            }
            if (Files.isRegularFile(latest)) {
                String id = Files.readString(latest, StandardCharsets.UTF_8).trim();
                return id.isEmpty() ? Optional.empty() : Optional.of(id);
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + latest + ": " + e.getMessage(), e);
        }
    }

    /** The ids of the runs kept in {@code out}, oldest first. */
    public static List<String> runIds(Path out) {
        Path runs = out.resolve(RUNS);
        if (!Files.isDirectory(runs)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(runs)) {
            return s.filter(p -> Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .map(p -> p.getFileName().toString())
                    .filter(n -> RUN_ID.matcher(n).matches() && !n.equals(LATEST))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + runs + ": " + e.getMessage(), e);
        }
    }

    private static void prune(Path out, int keep, String current) {
        List<String> ids = new ArrayList<>(runIds(out));
        ids.remove(current);
        int remove = ids.size() - (keep - 1);
        for (int i = 0; i < remove; i++) {
            deleteTree(out.resolve(RUNS).resolve(ids.get(i)));
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the old run " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The map file {@code path} names: the file itself; in a directory, its {@code inventory-map.json}, else
     * the map of {@code runs/latest}.
     *
     * @throws UncheckedIOException naming the path when there is no map there
     */
    public static Path mapFile(Path path) {
        if (Files.isRegularFile(path)) {
            return path;
        }
        if (Files.isDirectory(path)) {
            Path direct = path.resolve(InventoryMapWriter.FILE_NAME);
            if (Files.isRegularFile(direct)) {
                return direct;
            }
            Optional<String> latest = latest(path);
            if (latest.isPresent()) {
                Path viaLatest = path.resolve(RUNS).resolve(latest.get()).resolve(InventoryMapWriter.FILE_NAME);
                if (Files.isRegularFile(viaLatest)) {
                    return viaLatest;
                }
            }
            throw new UncheckedIOException("no " + InventoryMapWriter.FILE_NAME + " in " + path,
                    new java.nio.file.NoSuchFileException(path.resolve(InventoryMapWriter.FILE_NAME).toString()));
        }
        throw new UncheckedIOException("no such file or directory: " + path, new java.nio.file.NoSuchFileException(path.toString()));
    }
}
