package io.cloudg.inventory;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Reads an {@code inventory-map.json} without holding its assets: the head ({@code format}, {@code run},
 * {@code summary}, {@code coverage}, {@code throttling}) is read when the reader opens, the assets are
 * then streamed one at a time ({@link #assets()}), so a map of a million assets is read in the memory of
 * one. Which file {@link #open} reads is {@link RunFiles#mapFile}'s answer: a map file, a run directory, or
 * an output directory.
 */
public final class MapReader implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path file;
    private final JsonParser parser;
    private final ObjectNode head = JSON.createObjectNode();
    private final List<CoverageRecord> coverage = new ArrayList<>();
    private boolean assetsConsumed;
    private boolean atAssets;

    private MapReader(Path file) throws IOException {
        this.file = file;
        this.parser = JSON.getFactory().createParser(file.toFile());
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException("not a JSON object");
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken t = parser.nextToken();
            if (name.equals("assets")) {
                if (t != JsonToken.START_ARRAY) {
                    throw new IOException("\"assets\" is not an array");
                }
                atAssets = true;
                return;
            }
            if (name.equals("coverage")) {
                if (t != JsonToken.START_ARRAY) {
                    throw new IOException("\"coverage\" is not an array");
                }
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    coverage.add(JSON.readValue(parser, CoverageRecord.class));
                }
            } else {
                head.set(name, JSON.readTree(parser));
            }
        }
    }

    /** Opens the map at {@code path} (a map file, a run directory or an output directory). */
    public static MapReader open(Path path) {
        Path file = RunFiles.mapFile(path);
        try {
            MapReader r = new MapReader(file);
            String format = r.head.path("format").asText("");
            if (!format.startsWith("cloudg.inventory-map/")) {
                r.close();
                throw new UncheckedIOException(file + " is not a cloudg inventory map (format \"" + format + "\")",
                        new IOException("format " + format));
            }
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the map " + file + ": " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    public String format() {
        return head.path("format").asText();
    }

    /** The run block ({@code id}, {@code mode}, {@code providers}, ...). */
    public JsonNode run() {
        return head.path("run");
    }

    public String runId() {
        return run().path("id").asText(null);
    }

    public JsonNode summary() {
        return head.path("summary");
    }

    /** The throttling block, or a null node when the run had none. */
    public JsonNode throttling() {
        JsonNode t = head.get("throttling");
        return t == null ? NullNode.getInstance() : t;
    }

    public List<CoverageRecord> coverage() {
        return List.copyOf(coverage);
    }

    /** The assets, in file order; once per reader. */
    public Iterator<Asset> assets() {
        if (assetsConsumed) {
            throw new IllegalStateException("the assets of " + file + " were read already");
        }
        assetsConsumed = true;
        return new Lookahead<>() {
            private boolean ended = !atAssets;

            @Override
            protected Asset fetch() {
                if (ended) {
                    return null;
                }
                try {
                    if (parser.nextToken() == JsonToken.START_OBJECT) {
                        return JSON.readValue(parser, Asset.class);
                    }
                    ended = true;
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the assets of " + file + ": " + e.getMessage(), e);
                }
            }
        };
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether {@code path} names something {@link #open} can read. */
    public static boolean readable(Path path) {
        try {
            return Files.isRegularFile(RunFiles.mapFile(path));
        } catch (UncheckedIOException e) {
            return false;
        }
    }
}
