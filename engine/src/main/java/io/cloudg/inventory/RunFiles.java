package io.cloudg.inventory;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.cloudg.resilience.report.ThrottlingReport;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * run, only the newest {@code keep} run directories stay, newest by when each finished ({@link #runIds}), not
 * by id (a fleet Job's run id is a UUID).
 */
public final class RunFiles {
    public static final String RUNS = "runs";
    public static final String LATEST = "latest";
    public static final String ASSETS = "assets.jsonl";
    public static final String COVERAGE = "coverage.jsonl";
    /** Run directories kept by default ({@code keep_runs}, {@code --keep}). */
    public static final int DEFAULT_KEEP = 5;

    private static final Logger LOG = LoggerFactory.getLogger("cloudg.map");
    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final ObjectWriter LINE = new ObjectMapper().writer();
    private static final JsonFactory HEAD = new JsonFactory(new ObjectMapper());

    /**
     * What {@link #write} wrote.
     *
     * @param mapFile where the run's map is: the top-level {@code inventory-map.json} when the run was written as
     *        asked, else wherever it could be written
     * @param runDir the run's directory under {@code runs/}, or null when it could not be kept there
     * @param problem null when everything was written as asked; else one line: what could not be written, the
     *        system's reason, and where the map is instead
     */
    public record Written(Path mapFile, Path runDir, String problem) {
        public Written(Path mapFile, Path runDir) {
            this(mapFile, runDir, null);
        }
    }

    /**
     * A finished run's files could be written nowhere (not under {@code runs/}, not in the output directory, not
     * in the system's temporary directory); the message says why and where the run's assets are kept.
     */
    public static final class NotWrittenException extends UncheckedIOException {
        private final Path keptAssets;

        NotWrittenException(String message, IOException cause, Path keptAssets) {
            super(message, cause);
            this.keptAssets = keptAssets;
        }

        /** The complete asset spool, kept. */
        public Path keptAssets() {
            return keptAssets;
        }
    }

    private RunFiles() {
    }

    /**
     * Writes a finished run into {@code out}: its directory under {@code runs/}, the top-level links,
     * {@code runs/latest}, then removes the run directories beyond the newest {@code keep}.
     *
     * <p>A finished run is never lost to a file that cannot be written. When its directory under {@code runs/}
     * cannot be written, the map, {@code assets.jsonl} and {@code coverage.jsonl} go straight into {@code out},
     * else into a new directory in the system's temporary directory; when the directory was written but a
     * top-level file or {@code runs/latest} could not be updated, the map is in the run's directory. Either way
     * {@link Written#problem()} says what failed and where the map is, and no temporary file is left behind.
     * A retention that could not remove an old run is logged; nothing is lost by it.
     *
     * @throws NotWrittenException when the map could be written nowhere; the spool is then kept, complete,
     *         and the message names it
     */
    public static Written write(Path out, int keep, Map<String, Object> run, Summary summary, List<CoverageRecord> coverage,
                                ThrottlingReport throttling, AssetSpool assets) {
        return write(out, keep, run, summary, coverage, throttling, assets, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** As {@link #write(Path, int, Map, Summary, List, ThrottlingReport, AssetSpool)}, with the last resort given. */
    static Written write(Path out, int keep, Map<String, Object> run, Summary summary, List<CoverageRecord> coverage,
                         ThrottlingReport throttling, AssetSpool assets, Path lastResort) {
        if (keep < 1) {
            throw new IllegalArgumentException("keep must be at least 1, but was " + keep);
        }
        String runId = String.valueOf(run.get("id"));
        if (!RUN_ID.matcher(runId).matches() || runId.equals(LATEST)) {
            throw new IllegalArgumentException("not a run id: " + runId);
        }
        assets.flush();
        Path dir = out.resolve(RUNS).resolve(runId);
        boolean existed = Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
        try {
            writeRun(dir, run, summary, coverage, throttling, assets);
        } catch (UncheckedIOException notKept) {
            if (!existed) {
                deleteQuietly(dir); // no half-written run directory for readers and the retention to find
            }
            return elsewhere(out, runId, run, summary, coverage, throttling, assets, lastResort, notKept);
        }
        List<String> problems = new ArrayList<>();
        try {
            pointLatest(out, runId);
        } catch (UncheckedIOException e) {
            problems.add(e.getMessage());
        }
        for (String name : List.of(InventoryMapWriter.FILE_NAME, ASSETS, COVERAGE)) {
            try {
                publish(dir.resolve(name), out.resolve(name));
            } catch (UncheckedIOException e) {
                problems.add(e.getMessage());
            }
        }
        try {
            prune(out, keep, runId);
        } catch (UncheckedIOException e) {
            LOG.warn("keeping the newest {} run(s) in {}: {}; older runs stay", keep, out.resolve(RUNS), e.getMessage());
        }
        if (problems.isEmpty()) {
            return new Written(out.resolve(InventoryMapWriter.FILE_NAME), dir);
        }
        Path map = dir.resolve(InventoryMapWriter.FILE_NAME);
        return new Written(map, dir, String.join("; ", problems) + "; the run is complete in " + dir + " (map: " + map + ")");
    }

    /** The run's three files into {@code dir}. */
    private static void writeRun(Path dir, Map<String, Object> run, Summary summary, List<CoverageRecord> coverage,
                                 ThrottlingReport throttling, AssetSpool assets) {
        InventoryMapWriter.write(dir, run, summary, coverage, throttling, assets);
        writeCoverage(dir, coverage);
        publish(assets.file(), dir.resolve(ASSETS));
    }

    /** A run whose directory under {@code runs/} could not be written: into {@code out}, else the last resort. */
    private static Written elsewhere(Path out, String runId, Map<String, Object> run, Summary summary,
                                     List<CoverageRecord> coverage, ThrottlingReport throttling, AssetSpool assets,
                                     Path lastResort, UncheckedIOException notKept) {
        String why = "the run could not be kept under " + out.resolve(RUNS) + " (" + notKept.getMessage() + ")";
        try {
            writeRun(out, run, summary, coverage, throttling, assets);
            Path map = out.resolve(InventoryMapWriter.FILE_NAME);
            return new Written(map, null, why + "; the map is in " + map);
        } catch (UncheckedIOException notInOut) {
            why += "; nor in " + out + " (" + notInOut.getMessage() + ")";
        }
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory(lastResort, "cloudg-run-" + runId + "-");
            writeRun(tmp, run, summary, coverage, throttling, assets);
            Path map = tmp.resolve(InventoryMapWriter.FILE_NAME);
            return new Written(map, null, why + "; the map is in " + map);
        } catch (IOException | UncheckedIOException e) {
            if (tmp != null) {
                deleteQuietly(tmp);
            }
            IOException cause = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            String reason = e instanceof UncheckedIOException ? e.getMessage()
                    : FileErrors.cannot("create a directory in", lastResort, cause).getMessage();
            assets.close();
            throw new NotWrittenException(why + "; nor in " + lastResort + " (" + reason + "); the run's assets are kept, "
                    + "complete, in " + assets.file(), cause, assets.file());
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                deleteTree(dir);
            }
        } catch (UncheckedIOException e) {
            LOG.warn("could not remove the incomplete {}: {}", dir, e.getMessage());
        }
    }

    private static void writeCoverage(Path dir, List<CoverageRecord> coverage) {
        Path target = dir.resolve(COVERAGE);
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, ".coverage-", ".jsonl.tmp");
            try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                for (CoverageEntry e : CoverageEntry.flatten(coverage)) {
                    w.write(LINE.writeValueAsString(e));
                    w.write('\n');
                }
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            removeTemporary(tmp);
            throw FileErrors.cannot("write", target, e);
        }
    }

    /** Removes a file written aside that did not become its target. */
    static void removeTemporary(Path tmp) {
        if (tmp != null) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                LOG.warn("could not remove the temporary file {}: {}", tmp, FileErrors.reason(e, tmp));
            }
        }
    }

    /** A temporary file's unique part: this process's pid and 64 random bits (a name, not a time: no clock read). */
    private static String temporarySuffix() {
        return ProcessHandle.current().pid() + "."
                + Long.toUnsignedString(java.util.concurrent.ThreadLocalRandom.current().nextLong(), 36) + ".tmp";
    }

    /** Makes {@code target} the same file as {@code source} (a hard link; a copy where links cannot be made), atomically. */
    static void publish(Path source, Path target) {
        Path tmp = null;
        try {
            Path parent = target.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            tmp = parent.resolve("." + target.getFileName() + "." + temporarySuffix());
            try {
                Files.createLink(tmp, source);
            } catch (UnsupportedOperationException | FileSystemException e) {
                Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            removeTemporary(tmp);
            throw FileErrors.cannot("write", target, e);
        }
    }

    private static void pointLatest(Path out, String runId) {
        Path runs = out.resolve(RUNS);
        Path latest = runs.resolve(LATEST);
        Path tmp = runs.resolve(".latest." + temporarySuffix());
        try {
            try {
                Files.createSymbolicLink(tmp, Path.of(runId));
            } catch (UnsupportedOperationException | FileSystemException e) {
                Files.writeString(tmp, runId + "\n", StandardCharsets.UTF_8);
            }
            Files.move(tmp, latest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            removeTemporary(tmp);
            throw new UncheckedIOException("cannot point " + latest + " at run " + runId + ": " + FileErrors.reason(e, latest), e);
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

    /**
     * The ids of the runs kept in {@code out}, oldest first: by when each finished, as its map says
     * ({@code run.finished_at}, else {@code run.started_at}), else by when its directory was last written; the
     * id breaks a tie. Not by id alone: a fleet Job's run id is a UUID, which sorts anywhere.
     */
    public static List<String> runIds(Path out) {
        Path runs = out.resolve(RUNS);
        if (!Files.isDirectory(runs)) {
            return List.of();
        }
        List<Path> dirs;
        try (Stream<Path> s = Files.list(runs)) {
            dirs = s.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> RUN_ID.matcher(p.getFileName().toString()).matches()
                            && !p.getFileName().toString().equals(LATEST))
                    .toList();
        } catch (IOException e) {
            throw FileErrors.cannot("list", runs, e);
        }
        record Kept(String id, Instant at) {
        }
        return dirs.stream().map(d -> new Kept(d.getFileName().toString(), finishedAt(d)))
                .sorted(Comparator.comparing(Kept::at).thenComparing(Kept::id)).map(Kept::id).toList();
    }

    /**
     * When the run in {@code dir} finished: its map's {@code run.finished_at} (else {@code started_at}), read
     * from the head of the file without its coverage or assets; else the directory's last-modified time.
     */
    static Instant finishedAt(Path dir) {
        Path map = dir.resolve(InventoryMapWriter.FILE_NAME);
        if (Files.isRegularFile(map, LinkOption.NOFOLLOW_LINKS)) {
            try (JsonParser p = HEAD.createParser(map.toFile())) {
                if (p.nextToken() == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        JsonToken value = p.nextToken();
                        if (field.equals("run") && value == JsonToken.START_OBJECT) {
                            JsonNode run = p.readValueAsTree();
                            for (String at : List.of("finished_at", "started_at")) {
                                if (run.path(at).isTextual()) {
                                    return Instant.parse(run.path(at).asText());
                                }
                            }
                            break;
                        }
                        p.skipChildren();
                    }
                }
            } catch (IOException | java.time.format.DateTimeParseException e) {
                LOG.debug("{}: no time in the map ({}); its directory's time orders it", dir, e.getClass().getSimpleName());
            }
        }
        try {
            return Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).toInstant();
        } catch (IOException e) {
            return Instant.EPOCH; // gone meanwhile: first to go
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
            throw FileErrors.cannot("remove the run directory", dir, e);
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
