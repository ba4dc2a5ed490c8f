package io.cloudg.resilience.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cloudg.resilience.Scope;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The in-memory governor's learned rates on disk: a small JSON file (one entry per slowed leaf) that a run
 * reads at start and writes at its end, so that a second map of an estate starts where the first learned
 * to be. Written atomically (a temporary file moved over the old one), merged with what other runs wrote
 * (entries of leaves this run did not use are kept until they expire). A file that cannot be read or
 * written never fails a run: the caller logs one warning and runs on the built-in rates.
 *
 * <pre>{@code
 * {"version": 1, "leaves": [{"scope": "aws/123456789012/us-east-1/ec2/DescribeImageAttribute",
 *   "rate_rps": 10.0, "ceiling_rps": 20.0, "throttles": 3, "last_throttle_at": "2026-12-01T21:00:00Z"}]}
 * }</pre>
 */
public final class LearnedRatesFile {
    static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    public LearnedRatesFile(Path file) {
        this.file = file;
    }

    /**
     * The default location: {@code $XDG_CACHE_HOME/cloudg/learned-rates.json}, else
     * {@code $HOME/.cache/cloudg/learned-rates.json} ({@code env} looks the variables up), else in the
     * working directory.
     */
    public static Path defaultLocation(Function<String, String> env) {
        String xdg = env.apply("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "cloudg", "learned-rates.json");
        }
        String home = env.apply("HOME");
        if (home == null || home.isBlank()) {
            home = System.getProperty("user.home");
        }
        return home == null ? Path.of(".cloudg-learned-rates.json") : Path.of(home, ".cache", "cloudg", "learned-rates.json");
    }

    public Path path() {
        return file;
    }

    /**
     * The entries not yet expired at {@code nowEpochMillis}; none when the file does not exist.
     *
     * @throws IOException when it exists but cannot be read or is not a learned-rates file
     */
    public List<LearnedRate> read(long nowEpochMillis, long ttlMillis) throws IOException {
        List<LearnedRate> out = new ArrayList<>();
        for (LearnedRate r : readAll()) {
            if (!r.expired(nowEpochMillis, ttlMillis)) {
                out.add(r);
            }
        }
        return out;
    }

    /** Every entry, expired or not (what {@code cloudg ratelimit show} lists). */
    public List<LearnedRate> readAll() throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return List.of();
        }
        if (root == null || !root.isObject() || root.path("version").asInt(-1) != VERSION || !root.path("leaves").isArray()) {
            throw new IOException(file + " is not a cloudg learned-rates file (version " + VERSION + ")");
        }
        List<LearnedRate> out = new ArrayList<>();
        for (JsonNode e : root.get("leaves")) {
            try {
                out.add(new LearnedRate(Scope.parse(e.path("scope").asText()), e.path("rate_rps").asDouble(),
                        e.path("ceiling_rps").asDouble(), e.path("throttles").asLong(),
                        Instant.parse(e.path("last_throttle_at").asText()).toEpochMilli()));
            } catch (RuntimeException bad) {
                throw new IOException(file + " holds an unreadable entry " + e + ": " + bad.getMessage(), bad);
            }
        }
        return out;
    }

    /**
     * Writes this run's slowed leaves over what the file held: entries of {@code used} leaves are replaced
     * by {@code learned} (a used leaf that recovered is dropped), others are kept unless expired. Nothing is
     * written when nothing changed (a run that learned nothing leaves no file behind).
     */
    public void merge(Collection<LearnedRate> learned, Set<Scope> used, long nowEpochMillis, long ttlMillis)
            throws IOException {
        Map<Scope, LearnedRate> all = new LinkedHashMap<>();
        List<LearnedRate> before;
        boolean rewrite = false;
        try {
            List<LearnedRate> stored = readAll();
            before = read(nowEpochMillis, ttlMillis);
            rewrite = stored.size() != before.size(); // expired entries go
        } catch (IOException unreadable) {
            before = List.of(); // an unreadable file is replaced, not merged
            rewrite = Files.exists(file);
        }
        for (LearnedRate r : before) {
            if (!used.contains(r.leaf())) {
                all.put(r.leaf(), r);
            }
        }
        for (LearnedRate r : learned) {
            all.put(r.leaf(), r);
        }
        if (rewrite || !List.copyOf(all.values()).equals(before)) {
            write(all.values());
        }
    }

    /** Removes the entries {@code drop} matches; returns how many. */
    public int remove(Predicate<Scope> drop) throws IOException {
        List<LearnedRate> kept = new ArrayList<>();
        int removed = 0;
        for (LearnedRate r : readAll()) {
            if (drop.test(r.leaf())) {
                removed++;
            } else {
                kept.add(r);
            }
        }
        if (removed > 0) {
            write(kept);
        }
        return removed;
    }

    private void write(Collection<LearnedRate> entries) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        ArrayNode leaves = root.putArray("leaves");
        for (LearnedRate r : entries) {
            leaves.addObject().put("scope", r.leaf().toString()).put("rate_rps", r.rateRps())
                    .put("ceiling_rps", r.ceilingRps()).put("throttles", r.throttles())
                    .put("last_throttle_at", Instant.ofEpochMilli(r.lastThrottleEpochMillis()).toString());
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".learned-rates", ".tmp");
        try {
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), root);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
