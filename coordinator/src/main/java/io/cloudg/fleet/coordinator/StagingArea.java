package io.cloudg.fleet.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Assets of executions whose outcome is not known yet, one JSON-lines file per execution on disk (memory
 * stays flat however large a task). When an execution's {@code done} arrives and it is the first for its
 * task, its file is moved into the run's spool; otherwise it is deleted. Chunks must arrive numbered
 * 0, 1, 2...: a repeat is ignored, a gap marks the execution broken (its results are then not used).
 */
public final class StagingArea implements AutoCloseable {
    private static final ObjectWriter LINE = new ObjectMapper().writerFor(Asset.class);

    /** What arrived of one execution. */
    static final class Staged {
        int chunks;
        long assets;
        boolean broken;
        final Path file;

        Staged(Path file) {
            this.file = file;
        }
    }

    private final Path dir;
    private final Map<String, Staged> staged = new HashMap<>();
    private int files;

    public StagingArea(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the staging directory " + dir + ": " + e.getMessage(), e);
        }
    }

    void append(String executionId, int seq, List<Asset> assets) {
        Staged s = staged.computeIfAbsent(executionId, k -> new Staged(dir.resolve("execution-" + (files++) + ".jsonl")));
        if (s.broken || seq < s.chunks) {
            return;
        }
        if (seq > s.chunks) {
            s.broken = true;
            return;
        }
        try (BufferedWriter w = Files.newBufferedWriter(s.file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            for (Asset a : assets) {
                w.write(LINE.writeValueAsString(a));
                w.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage assets in " + s.file + ": " + e.getMessage(), e);
        }
        s.chunks++;
        s.assets += assets.size();
    }

    /** What arrived of an execution (nothing: 0 chunks, 0 assets). */
    Staged get(String executionId) {
        Staged s = staged.get(executionId);
        return s != null ? s : new Staged(null);
    }

    /** Moves an execution's assets into the spool, in the order they came. */
    void moveInto(String executionId, AssetSpool spool) {
        Staged s = staged.remove(executionId);
        if (s == null || s.file == null || !Files.exists(s.file)) {
            return;
        }
        try (BufferedReader r = Files.newBufferedReader(s.file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isEmpty()) {
                    spool.acceptJson(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + s.file + ": " + e.getMessage(), e);
        }
        delete(s.file);
    }

    void discard(String executionId) {
        Staged s = staged.remove(executionId);
        if (s != null && s.file != null) {
            delete(s.file);
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + p + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        staged.clear();
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(StagingArea::delete);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir + ": " + e.getMessage(), e);
        }
    }
}
