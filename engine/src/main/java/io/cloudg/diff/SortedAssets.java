package io.cloudg.diff;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.cloudg.inventory.Asset;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Assets in {@link AssetOrder} whatever order they came in, in bounded memory: an external merge sort.
 * Up to {@code budgetBytes} of assets (counted as their JSON) are sorted in memory; beyond that each
 * sorted run goes to a file of JSON lines under {@code tmp} and the runs are merged as they are read, so
 * sorting a million assets needs the memory of one run, not of the million. Close it to remove the files.
 */
public final class SortedAssets implements Iterator<Asset>, AutoCloseable {
    /** The default in-memory run: 64 MB of asset JSON. */
    public static final long DEFAULT_BUDGET = 64L << 20;
    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final ObjectWriter LINE = JSON.writerFor(Asset.class);

    private final List<Path> files = new ArrayList<>();
    private final Iterator<Asset> merged;
    private final List<BufferedReader> readers = new ArrayList<>();
    private int spills;

    /** Sorts {@code assets}, spilling to {@code tmp} past {@code budgetBytes}. */
    public SortedAssets(Iterator<Asset> assets, Path tmp, long budgetBytes) {
        List<Asset> run = new ArrayList<>();
        long bytes = 0;
        try {
            while (assets.hasNext()) {
                Asset a = assets.next();
                run.add(a);
                bytes += estimate(a);
                if (bytes >= budgetBytes) {
                    spill(run, tmp);
                    run = new ArrayList<>();
                    bytes = 0;
                }
            }
            run.sort(AssetOrder.BY_KEY);
            if (files.isEmpty()) {
                merged = run.iterator();
            } else {
                if (!run.isEmpty()) {
                    spill(run, tmp);
                }
                merged = merge();
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot sort assets in " + tmp + ": " + e.getMessage(), e);
        }
    }

    /** How many sorted runs went to disk (0: it all fit in memory). */
    public int spills() {
        return spills;
    }

    private static long estimate(Asset a) {
        long n = 200;
        for (String s : new String[] {a.provider(), a.accountId(), a.region(), a.service(), a.type(), a.id(), a.name(), a.arn()}) {
            n += s == null ? 0 : 2L * s.length();
        }
        return n + 64L * (a.tags().size() + a.attributes().size());
    }

    private void spill(List<Asset> run, Path tmp) throws IOException {
        run.sort(AssetOrder.BY_KEY);
        Files.createDirectories(tmp);
        Path f = Files.createTempFile(tmp, ".cloudg-sort-", ".jsonl");
        files.add(f);
        spills++;
        try (BufferedWriter w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
            for (Asset a : run) {
                w.write(LINE.writeValueAsString(a));
                w.write('\n');
            }
        }
    }

    private record Head(Asset asset, BufferedReader from) {
    }

    private Iterator<Asset> merge() throws IOException {
        PriorityQueue<Head> heads = new PriorityQueue<>((x, y) -> AssetOrder.BY_KEY.compare(x.asset(), y.asset()));
        for (Path f : files) {
            BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8);
            readers.add(r);
            Asset first = read(r);
            if (first != null) {
                heads.add(new Head(first, r));
            }
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !heads.isEmpty();
            }

            @Override
            public Asset next() {
                Head h = heads.poll();
                if (h == null) {
                    throw new NoSuchElementException();
                }
                try {
                    Asset following = read(h.from());
                    if (following != null) {
                        heads.add(new Head(following, h.from()));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return h.asset();
            }
        };
    }

    private static Asset read(BufferedReader r) throws IOException {
        String line = r.readLine();
        return line == null ? null : JSON.readValue(line, Asset.class);
    }

    @Override
    public boolean hasNext() {
        return merged.hasNext();
    }

    @Override
    public Asset next() {
        return merged.next();
    }

    @Override
    public void close() {
        for (BufferedReader r : readers) {
            try {
                r.close();
            } catch (IOException e) {
                // best effort: the files go next
            }
        }
        for (Path f : files) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                // a temporary file left behind is not worth failing a diff for
            }
        }
    }
}
