package io.cloudg.inventory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Assets as they arrive, one JSON line each, in a file: memory stays flat however many assets a run
 * finds. Thread-safe; writes are buffered and serialized under one lock (serialization happens outside
 * it).
 */
public final class AssetSpool implements AssetSink, AutoCloseable {
    private static final ObjectWriter JSON = new ObjectMapper().writerFor(Asset.class);
    private static final ObjectMapper READ = new ObjectMapper();

    private final Path file;
    private final BufferedWriter out;
    private final AtomicLong count = new AtomicLong();
    private final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.LongAdder> byProvider =
            new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.regex.Pattern PROVIDER = java.util.regex.Pattern.compile("\"provider\"\\s*:\\s*\"([^\"]+)\"");
    private boolean closed;
    private volatile Consumer<String> tee;

    public AssetSpool(Path file) {
        this.file = file;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw FileErrors.cannot("create the asset spool", file, e);
        }
    }

    /** A spool in a new temporary file under {@code dir}. */
    public static AssetSpool temporary(Path dir) {
        try {
            Files.createDirectories(dir);
            return new AssetSpool(Files.createTempFile(dir, ".cloudg-assets-", ".jsonl"));
        } catch (IOException e) {
            throw FileErrors.cannot("create a temporary file in", dir, e);
        }
    }

    @Override
    public void accept(Asset asset) {
        String line;
        try {
            line = JSON.writeValueAsString(asset);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("asset spool " + file + " is closed");
            }
            try {
                out.write(line);
                out.write('\n');
            } catch (IOException e) {
                throw FileErrors.cannot("write to", file, e);
            }
        }
        count.incrementAndGet();
        counted(asset.provider());
        teeLine(line);
    }

    private void counted(String provider) {
        byProvider.computeIfAbsent(provider == null ? "?" : provider, p -> new java.util.concurrent.atomic.LongAdder())
                .increment();
    }

    /** Assets written so far, by provider. */
    public java.util.Map<String, Long> countByProvider() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        byProvider.forEach((p, n) -> out.put(p, n.sum()));
        return out;
    }

    /**
     * Also hands every line written from now on to {@code each} (the run's destinations), after it is in
     * the file and outside the spool's lock; {@code each} MUST be thread-safe.
     */
    public AssetSpool tee(Consumer<String> each) {
        this.tee = each;
        return this;
    }

    private void teeLine(String line) {
        Consumer<String> t = tee;
        if (t != null) {
            t.accept(line);
        }
    }

    /** Writes a line that is already an asset's JSON (from another process's results). */
    public void acceptJson(String assetJson) {
        synchronized (this) {
            try {
                out.write(assetJson);
                out.write('\n');
            } catch (IOException e) {
                throw FileErrors.cannot("write to", file, e);
            }
        }
        count.incrementAndGet();
        java.util.regex.Matcher m = PROVIDER.matcher(assetJson);
        counted(m.find() ? m.group(1) : null);
        teeLine(assetJson);
    }

    public long count() {
        return count.get();
    }

    public Path file() {
        return file;
    }

    /** Flushes buffered lines to the file (a closed spool has none). */
    public synchronized void flush() {
        if (closed) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            throw FileErrors.cannot("write to", file, e);
        }
    }

    /** Every line written so far, in order, as raw JSON. */
    public void forEachLine(Consumer<String> line) {
        flush();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                if (!l.isEmpty()) {
                    line.accept(l);
                }
            }
        } catch (IOException e) {
            throw FileErrors.cannot("read", file, e);
        }
    }

    /** Every asset written so far, read back lazily. Close the stream. */
    public Stream<Asset> stream() {
        flush();
        try {
            return Files.lines(file, StandardCharsets.UTF_8).filter(l -> !l.isEmpty()).map(AssetSpool::parse);
        } catch (IOException e) {
            throw FileErrors.cannot("read", file, e);
        }
    }

    static Asset parse(String line) {
        try {
            return READ.readValue(line, Asset.class);
        } catch (IOException e) {
            throw new UncheckedIOException("malformed asset line: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            try {
                out.close();
            } catch (IOException e) {
                throw FileErrors.cannot("write to", file, e);
            }
        }
    }

    /** Closes and removes the file. */
    public void delete() {
        close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw FileErrors.cannot("remove", file, e);
        }
    }
}
