package io.cloudg.mcp.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cloudg.InventoryResult;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.FileErrors;
import io.cloudg.inventory.InventoryMapWriter;
import io.cloudg.resilience.time.TimeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Datasets on disk, one directory each under {@code mcp.dataset_dir}:
 * <pre>
 * ds-20260101T120000Z-3fa9c2/
 *   dataset.json          the {@link DatasetMeta}
 *   inventory-map.json    the map, in the format of {@code cloudg map}
 *   findings.json         the scan, when the dataset was scanned
 * </pre>
 * A live operation writes into a staging directory ({@link #begin()}) and {@link #commit}s it: the
 * directory appears under its final name in one rename, so a reader never sees half a dataset, and a failed
 * operation leaves nothing ({@link #abandon}). Reading a dataset never touches a cloud: assets stream from
 * {@code inventory-map.json} one at a time.
 */
public final class DatasetStore {
    public static final String META = "dataset.json";
    public static final String FINDINGS = "findings.json";
    private static final Pattern ID = Pattern.compile("ds-\\d{8}T\\d{6}Z-[0-9a-f]{6}");
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path dir;
    private final TimeSource time;

    /** A staging directory a live operation writes into. */
    public record Draft(String id, Path dir, long createdAtMillis) {
    }

    /** Where datasets are saved. */
    public Path directory() {
        return dir;
    }

    public DatasetStore(Path dir, TimeSource time) {
        this.dir = dir;
        this.time = time;
    }

    public Path dir() {
        return dir;
    }

    /** A new staging directory with a fresh id. */
    public Draft begin() {
        long now = time.epochMillis();
        String id = "ds-" + ID_TIME.format(Instant.ofEpochMilli(now)) + "-"
                + String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24));
        Path staging = dir.resolve(".staging-" + id);
        try {
            Files.createDirectories(staging);
        } catch (IOException e) {
            throw FileErrors.cannot("create", staging, e);
        }
        return new Draft(id, staging, now);
    }

    /** Writes {@code findings.json} into a draft. */
    public void writeFindings(Draft d, Object findings) {
        try {
            JSON.writeValue(d.dir().resolve(FINDINGS).toFile(), findings);
        } catch (IOException e) {
            throw FileErrors.cannot("write", d.dir().resolve(FINDINGS), e);
        }
    }

    /**
     * Saves a draft whose {@code inventory-map.json} {@code result} wrote: writes {@code dataset.json} and
     * renames the directory to its id.
     */
    public DatasetMeta commit(Draft d, Source source, InventoryResult result, Integer findings) {
        Map<String, Integer> services = new TreeMap<>();
        result.services().forEach((status, n) -> services.put(status.name(), n));
        DatasetMeta meta = new DatasetMeta(d.id(), source.kind(), source.tool(), source.principal(), source.operationId(),
                Instant.ofEpochMilli(d.createdAtMillis()).toString(), d.createdAtMillis(), source.providers(),
                source.scopes(), source.slice(), result.assetCount(), services, result.complete(), findings);
        try {
            if (!result.mapFile().getParent().equals(d.dir())) {
                Files.move(result.mapFile(), d.dir().resolve(InventoryMapWriter.FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
            }
            JSON.writeValue(d.dir().resolve(META).toFile(), meta);
            Files.move(d.dir(), dir.resolve(d.id()), StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalStateException("dataset " + d.id() + " exists already", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save dataset " + d.id() + " in " + dir + ": " + FileErrors.reason(e, null), e);
        }
        return meta;
    }

    /** Removes a draft (the operation failed or was cancelled). */
    public void abandon(Draft d) {
        try (Stream<Path> files = Files.walk(d.dir())) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw FileErrors.cannot("remove", d.dir(), e);
        }
    }

    /**
     * What produced a dataset.
     *
     * @param kind map, slice, scan or pipeline
     * @param tool the MCP tool
     * @param principal the caller
     * @param operationId the live operation
     * @param providers covered providers
     * @param scopes guard scopes
     * @param slice provider/account/region/service of a slice, else null
     */
    public record Source(String kind, String tool, String principal, String operationId, List<String> providers,
                         List<String> scopes, Map<String, String> slice) {
    }

    /** Every saved dataset, newest first. Unreadable directories are skipped. */
    public List<DatasetMeta> list() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<DatasetMeta> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, p -> ID.matcher(p.getFileName().toString()).matches())) {
            for (Path p : ds) {
                Path meta = p.resolve(META);
                if (Files.isRegularFile(meta)) {
                    try {
                        out.add(JSON.readValue(meta.toFile(), DatasetMeta.class));
                    } catch (IOException e) {
                        // a directory someone edited by hand: not a dataset
                    }
                }
            }
        } catch (IOException e) {
            throw FileErrors.cannot("list", dir, e);
        }
        out.sort(Comparator.comparingLong(DatasetMeta::createdAtMillis).thenComparing(DatasetMeta::id).reversed());
        return out;
    }

    /** The dataset {@code id}. */
    public DatasetMeta get(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new DatasetNotFoundException("no dataset " + id + " (ids look like ds-20260101T120000Z-3fa9c2; "
                    + "list_datasets lists them)");
        }
        return list().stream().filter(m -> m.id().equals(id)).findFirst()
                .orElseThrow(() -> new DatasetNotFoundException("no dataset " + id + " in " + dir));
    }

    /** The newest dataset that matches {@code which}. */
    public Optional<DatasetMeta> newest(Predicate<DatasetMeta> which) {
        return list().stream().filter(which).findFirst();
    }

    /** The newest dataset covering every one of {@code providers} (the refusal's {@code use_dataset}). */
    public Optional<String> newestCovering(java.util.Collection<String> providers) {
        return newest(m -> m.covers(providers)).map(DatasetMeta::id);
    }

    public Path mapFile(DatasetMeta m) {
        return dir.resolve(m.id()).resolve(InventoryMapWriter.FILE_NAME);
    }

    public Path findingsFile(DatasetMeta m) {
        return dir.resolve(m.id()).resolve(FINDINGS);
    }

    /** The findings saved with {@code m}, if it was scanned. */
    public <T> Optional<T> findings(DatasetMeta m, Class<T> type) {
        Path f = findingsFile(m);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(f.toFile(), type));
        } catch (IOException e) {
            throw FileErrors.cannot("read", f, e);
        }
    }

    /** The coverage records of {@code m}'s map. */
    public List<CoverageRecord> coverage(DatasetMeta m) {
        try (JsonParser p = JSON.createParser(mapFile(m).toFile())) {
            if (!seek(p, "coverage")) {
                return List.of();
            }
            return List.of(JSON.readValue(p, CoverageRecord[].class));
        } catch (IOException e) {
            throw FileErrors.cannot("read", mapFile(m), e);
        }
    }

    /** {@code m}'s assets, read one at a time from disk. Close the stream. */
    public Stream<Asset> assets(DatasetMeta m) {
        Path file = mapFile(m);
        JsonParser p;
        try {
            p = JSON.createParser(file.toFile());
            if (!seek(p, "assets") || p.currentToken() != JsonToken.START_ARRAY) {
                p.close();
                return Stream.empty();
            }
        } catch (IOException e) {
            throw FileErrors.cannot("read", file, e);
        }
        Iterator<Asset> it = new Iterator<>() {
            Asset next = advance();

            private Asset advance() {
                try {
                    return p.nextToken() == JsonToken.START_OBJECT ? JSON.readValue(p, Asset.class) : null;
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read an asset of " + file + ": " + FileErrors.reason(e, file), e);
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Asset next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Asset a = next;
                next = advance();
                return a;
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(() -> {
                    try {
                        p.close();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /** Moves the parser onto the value of the top-level field {@code name}. */
    private static boolean seek(JsonParser p, String name) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return false;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            if (f.equals(name)) {
                return true;
            }
            p.skipChildren();
        }
        return false;
    }
}
