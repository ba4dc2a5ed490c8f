package io.cloudg.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.inventory.FileErrors;
import io.cloudg.inventory.RunFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the previous map of the same output directory found: the asset count of each account x region x
 * collector, read from its coverage entries (the assets themselves are skipped, streamed past: a map of a
 * million assets is read in the memory of its coverage). Compact: one {@code int} per record x collector
 * name. The scheduler takes it as each job's expected size ({@link CallEstimates}); the progress line's ETA
 * takes how long that map ran ({@link #durationSeconds()}) and how ({@link #mode()}) as its first guess.
 */
public final class PriorRun {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.run");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILE = "inventory-map.json";

    /** No previous map. */
    public static final PriorRun NONE = new PriorRun(null, Map.of(), Map.of(), Double.NaN, null);

    private final Path source;
    private final Map<String, Integer> collectors;
    private final Map<String, int[]> counts;
    private final double durationSeconds;
    private final String mode;

    private PriorRun(Path source, Map<String, Integer> collectors, Map<String, int[]> counts, double durationSeconds,
                     String mode) {
        this.source = source;
        this.collectors = collectors;
        this.counts = counts;
        this.durationSeconds = durationSeconds;
        this.mode = mode;
    }

    /**
     * The previous map in {@code outDir}: the map of the run {@code runs/latest} names when runs are kept, else
     * {@code inventory-map.json}; {@link #NONE} when there is none or it cannot be read (said once, at INFO:
     * a map without it still runs, only less well ordered).
     *
     * <p>Only a map cloudg could have written is read: a regular file, not a symbolic link, inside
     * {@code outDir} once every link on the way is resolved. A map that is not one says so without a word of
     * its content: the output directory may be shared, and the file it points at anyone's.
     */
    public static PriorRun read(Path outDir) {
        if (outDir == null || !Files.isDirectory(outDir)) {
            return NONE;
        }
        List<Path> candidates = new ArrayList<>(2);
        try {
            RunFiles.latest(outDir).ifPresent(id -> candidates.add(outDir.resolve(RunFiles.RUNS).resolve(id).resolve(FILE)));
        } catch (UncheckedIOException | java.nio.file.InvalidPathException e) {
            LOG.debug("runs/latest of {} cannot be read: {}", outDir, e.getMessage());
        }
        candidates.add(outDir.resolve(FILE));
        for (Path p : candidates) {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            String refused = refusal(outDir, p);
            if (refused != null) {
                LOG.info("the previous map {} {}, not read: tasks are ordered without its sizes", p, refused);
                return NONE;
            }
            try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
                PriorRun r = parse(in, p);
                LOG.debug("previous map {}: {} account x region record(s)", p, r.records());
                return r;
            } catch (IOException | RuntimeException e) {
                LOG.info("the previous map {} cannot be read ({}): tasks are ordered without its sizes", p, why(e, p));
                return NONE;
            }
        }
        return NONE;
    }

    /** Why {@code map} is not read as a map cloudg wrote into {@code outDir}, or null when it is read. */
    private static String refusal(Path outDir, Path map) {
        if (Files.isSymbolicLink(map)) {
            return "is a symbolic link (cloudg writes it as a file)";
        }
        if (!Files.isRegularFile(map, LinkOption.NOFOLLOW_LINKS)) {
            return "is not a regular file";
        }
        try {
            if (!map.toRealPath().startsWith(outDir.toRealPath())) {
                return "lies outside " + outDir + " once its links are followed";
            }
        } catch (IOException e) {
            return "cannot be resolved (" + FileErrors.reason(e, map) + ")";
        }
        return null;
    }

    /**
     * What went wrong, without the parser's words: they quote the text it could not read, which is the
     * content of a file that may not be a map at all.
     */
    private static String why(Exception e, Path p) {
        if (e instanceof JsonProcessingException j) {
            JsonLocation at = j.getLocation();
            return at == null ? "not a cloudg map" : "not a cloudg map: unreadable at line " + at.getLineNr()
                    + ", column " + at.getColumnNr();
        }
        if (e instanceof IOException io) {
            return FileErrors.reason(io, p);
        }
        return e.getClass().getSimpleName();
    }

    /** Reads the coverage of a map (visible for tests and benchmarks). */
    public static PriorRun parse(InputStream in, Path source) throws IOException {
        Map<String, Integer> names = new HashMap<>();
        Map<String, int[]> counts = new HashMap<>();
        double duration = Double.NaN;
        String mode = null;
        try (JsonParser p = new JsonFactory(JSON).createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if ("run".equals(field) && value == JsonToken.START_OBJECT) {
                    mode = p.<JsonNode>readValueAsTree().path("mode").asText(null);
                    continue;
                }
                if ("summary".equals(field) && value == JsonToken.START_OBJECT) {
                    duration = duration(p);
                    continue;
                }
                if (!"coverage".equals(field) || value != JsonToken.START_ARRAY) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    JsonNode r = p.readValueAsTree();
                    record(r, names, counts);
                }
            }
        }
        return new PriorRun(source, Map.copyOf(names), counts, duration, mode);
    }

    /** {@code summary.duration_seconds} of the summary the parser is at the start of (the rest skipped), or NaN. */
    private static double duration(JsonParser p) throws IOException {
        double d = Double.NaN;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if ("duration_seconds".equals(name) && v.isNumeric()) {
                d = p.getDoubleValue();
            } else {
                p.skipChildren();
            }
        }
        return d > 0 ? d : Double.NaN;
    }

    private static void record(JsonNode r, Map<String, Integer> names, Map<String, int[]> counts) {
        String id = r.path("provider").asText() + "/" + r.path("account_id").asText() + "/" + r.path("region").asText();
        int[] row = counts.get(id);
        for (JsonNode s : r.path("services")) {
            String name = s.path("service").asText(null);
            if (name == null || !s.path("asset_count").canConvertToLong()) {
                continue;
            }
            int index = names.computeIfAbsent(name, k -> names.size());
            if (row == null || row.length <= index) {
                int[] grown = new int[Math.max(index + 1, row == null ? 16 : row.length * 2)];
                Arrays.fill(grown, -1);
                if (row != null) {
                    System.arraycopy(row, 0, grown, 0, row.length);
                }
                row = grown;
            }
            row[index] = (int) Math.min(Integer.MAX_VALUE, Math.max(0, s.path("asset_count").asLong()));
        }
        if (row != null) {
            counts.put(id, row);
        }
    }

    /** The assets {@code collector} found in record {@code recordId} ({@code aws/<account>/<region>}), or -1. */
    public long assets(String recordId, String collector) {
        Integer i = collectors.get(collector);
        int[] row = i == null ? null : counts.get(recordId);
        return row == null || i >= row.length ? -1 : row[i];
    }

    /** How long the previous map ran, in seconds ({@code summary.duration_seconds}); NaN when not known. */
    public double durationSeconds() {
        return durationSeconds;
    }

    /** How the previous map ran ({@code run.mode}: embedded, distributed, slice), or null when not known. */
    public String mode() {
        return mode;
    }

    /** How many account x region records it has. */
    public int records() {
        return counts.size();
    }

    /** The file it was read from, or null for {@link #NONE}. */
    public Path source() {
        return source;
    }
}
