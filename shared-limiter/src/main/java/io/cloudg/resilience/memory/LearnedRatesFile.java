package io.cloudg.resilience.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cloudg.resilience.spi.Scope;
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
 * The in-memory governor's learned rates on disk: a small JSON file (one entry per slowed leaf, grouped by
 * the estate it was learned against) that a run reads at start and writes at its end, so that a second map
 * of an estate starts where the first learned to be. Written atomically (a temporary file moved over the old
 * one), merged with what other runs wrote (entries of leaves this run did not use, and every other estate's,
 * are kept until they expire). A file that cannot be read or written never fails a run: the caller logs one
 * warning and runs on the built-in rates.
 *
 * <p>An <b>estate</b> is what a provider's calls were answered by: {@code <provider>:<identity>@<endpoint>},
 * the identity being the organization's management account (AWS), the tenant (Azure) or the organization
 * (GCP), the endpoint the configured {@code endpoint_url} or the provider's name for its public cloud
 * ({@code aws:123456789012@aws}, {@code aws:123456789012@http://127.0.0.1:4566}). Two estates whose account
 * ids happen to be equal (a simulator, a demo) never share a rate.
 *
 * <pre>{@code
 * {"version": 2, "estates": [{"estate": "aws:123456789012@aws", "leaves": [
 *   {"scope": "aws/123456789012/us-east-1/ec2/DescribeImageAttribute", "rate_rps": 10.0, "ceiling_rps": 20.0,
 *    "throttles": 3, "last_throttle_at": "2026-12-01T21:00:00Z"}]}]}
 * }</pre>
 *
 * <p>Version 1 (before estates) had one {@code leaves} list: its entries are read under the estate
 * {@link #LEGACY}, which no run uses, and the next write by a run drops them ({@link #merge} says how many).
 */
public final class LearnedRatesFile {
    static final int VERSION = 2;
    /** The estate of entries read from a version-1 file, which recorded none: shown, never used. */
    public static final String LEGACY = "legacy";
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
     * The entries not yet expired at {@code nowEpochMillis}, of every estate; none when the file does not exist.
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

    /** Every entry, expired or not, of every estate (what {@code cloudg ratelimit show} lists). */
    public List<LearnedRate> readAll() throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return List.of();
        }
        int version = root == null || !root.isObject() ? -1 : root.path("version").asInt(-1);
        List<LearnedRate> out = new ArrayList<>();
        if (version == 1 && root.path("leaves").isArray()) {
            for (JsonNode e : root.get("leaves")) {
                out.add(entry(LEGACY, e));
            }
            return out;
        }
        if (version != VERSION || !root.path("estates").isArray()) {
            throw new IOException(file + " is not a cloudg learned-rates file (version " + VERSION + ", or 1)");
        }
        for (JsonNode estate : root.get("estates")) {
            String key = estate.path("estate").asText("");
            if (key.isBlank() || !estate.path("leaves").isArray()) {
                throw new IOException(file + " holds an estate without a name or leaves: " + estate);
            }
            for (JsonNode e : estate.get("leaves")) {
                out.add(entry(key, e));
            }
        }
        return out;
    }

    private LearnedRate entry(String estate, JsonNode e) throws IOException {
        try {
            return new LearnedRate(estate, Scope.parse(e.path("scope").asText()), e.path("rate_rps").asDouble(),
                    e.path("ceiling_rps").asDouble(), e.path("throttles").asLong(),
                    Instant.parse(e.path("last_throttle_at").asText()).toEpochMilli());
        } catch (RuntimeException bad) {
            throw new IOException(file + " holds an unreadable entry " + e + ": " + bad.getMessage(), bad);
        }
    }

    /**
     * Writes a run's slowed leaves over what the file held: for each estate of {@code used}, the entries of the
     * leaves the run used are replaced by {@code learned} (a used leaf that recovered is dropped); every other
     * entry is kept unless expired, except those of a version-1 file ({@link #LEGACY}), which are dropped.
     * Nothing is written when nothing changed (a run that learned nothing leaves no file behind).
     *
     * @param learned the run's slowed leaves, each with its estate
     * @param used the leaves the run used, by estate
     * @return how many version-1 entries were dropped (for the caller's one line)
     */
    public int merge(Collection<LearnedRate> learned, Map<String, Set<Scope>> used, long nowEpochMillis, long ttlMillis)
            throws IOException {
        record Key(String estate, Scope leaf) {
        }
        Map<Key, LearnedRate> all = new LinkedHashMap<>();
        List<LearnedRate> before;
        boolean rewrite = false;
        int legacy = 0;
        try {
            List<LearnedRate> stored = readAll();
            before = read(nowEpochMillis, ttlMillis);
            rewrite = stored.size() != before.size(); // expired entries go
        } catch (IOException unreadable) {
            before = List.of(); // an unreadable file is replaced, not merged
            rewrite = Files.exists(file);
        }
        for (LearnedRate r : before) {
            if (r.legacy()) {
                legacy++;
            } else if (!used.getOrDefault(r.estate(), Set.of()).contains(r.leaf())) {
                all.put(new Key(r.estate(), r.leaf()), r);
            }
        }
        for (LearnedRate r : learned) {
            all.put(new Key(r.estate(), r.leaf()), r);
        }
        if (rewrite || legacy > 0 || !List.copyOf(all.values()).equals(before)) {
            write(all.values());
        }
        return legacy;
    }

    /** Removes the entries {@code drop} matches; returns how many. */
    public int remove(Predicate<LearnedRate> drop) throws IOException {
        List<LearnedRate> kept = new ArrayList<>();
        int removed = 0;
        for (LearnedRate r : readAll()) {
            if (drop.test(r)) {
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
        ArrayNode estates = root.putArray("estates");
        Map<String, ArrayNode> byEstate = new LinkedHashMap<>();
        for (LearnedRate r : entries) {
            ArrayNode leaves = byEstate.computeIfAbsent(r.estate(), k -> estates.addObject().put("estate", k).putArray("leaves"));
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
