package io.cloudg.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Checks what a map writes against {@code docs/schema/inventory-map.schema.json}: the map itself, and each
 * line of {@code assets.jsonl} and {@code coverage.jsonl} against the schema's {@code asset} and
 * {@code coverage_entry}. Every test that writes a map calls {@link #assertValid} or
 * {@link #assertEveryMapValid} on what it wrote (worker, coordinator, mcp and cli tests alike: this class is in
 * the engine's test jar).
 */
public final class MapSchema {
    public static final String ID = "https://cloudg.io/schema/inventory-map.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemas(Map.of(ID, read(schemaFile()))));
    private static final Schema MAP = REGISTRY.getSchema(SchemaLocation.of(ID));
    private static final Schema ASSET = REGISTRY.getSchema(SchemaLocation.of(ID + "#/$defs/asset"));
    private static final Schema COVERAGE_ENTRY = REGISTRY.getSchema(SchemaLocation.of(ID + "#/$defs/coverage_entry"));

    private MapSchema() {
    }

    /** The schema file, found from the working directory upwards (a module's directory when Maven runs tests). */
    public static Path schemaFile() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("docs/schema/inventory-map.schema.json");
            if (Files.isRegularFile(f)) {
                return f;
            }
        }
        throw new IllegalStateException("docs/schema/inventory-map.schema.json not found above " + Path.of("").toAbsolutePath());
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What is wrong with the map file {@code map} (empty: nothing). */
    public static List<String> problems(Path map) {
        try {
            return messages(MAP.validate(JSON.readTree(map.toFile())), map.toString());
        } catch (IOException e) {
            return List.of(map + ": not JSON: " + e.getMessage());
        }
    }

    /** What is wrong with a JSON document given as a tree (empty: nothing). */
    public static List<String> problems(JsonNode map) {
        return messages(MAP.validate(map), "map");
    }

    /** What is wrong with the lines of a JSON-lines file, each checked as {@code def} ({@code asset}, {@code coverage_entry}). */
    public static List<String> lineProblems(Path jsonl, String def) {
        Schema schema = switch (def) {
            case "asset" -> ASSET;
            case "coverage_entry" -> COVERAGE_ENTRY;
            default -> throw new IllegalArgumentException(def);
        };
        List<String> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
            int n = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                n++;
                if (line.isEmpty()) {
                    out.add(jsonl + ":" + n + ": empty line");
                    continue;
                }
                out.addAll(messages(schema.validate(JSON.readTree(line)), jsonl + ":" + n));
            }
        } catch (IOException e) {
            out.add(jsonl + ": " + e.getMessage());
        }
        return out;
    }

    private static List<String> messages(List<Error> errors, String where) {
        return errors.stream().map(e -> where + ": " + e.getInstanceLocation() + " " + e.getMessage()).limit(50).toList();
    }

    /**
     * Asserts that the map at {@code path} (a map file, or a directory holding {@code inventory-map.json}) is
     * valid, and so are the {@code assets.jsonl} and {@code coverage.jsonl} beside it.
     */
    public static void assertValid(Path path) {
        Path map = Files.isDirectory(path) ? path.resolve("inventory-map.json") : path;
        assertThat(map).exists();
        List<String> problems = new ArrayList<>(problems(map));
        Path dir = map.toAbsolutePath().getParent();
        if (Files.exists(dir.resolve("assets.jsonl"))) {
            problems.addAll(lineProblems(dir.resolve("assets.jsonl"), "asset"));
        }
        if (Files.exists(dir.resolve("coverage.jsonl"))) {
            problems.addAll(lineProblems(dir.resolve("coverage.jsonl"), "coverage_entry"));
        }
        assertThat(problems).as("schema problems of " + map).isEmpty();
    }

    /** Asserts {@link #assertValid} of every {@code inventory-map.json} under {@code root}; returns how many there were. */
    public static int assertEveryMapValid(Path root) {
        if (!Files.isDirectory(root)) {
            return 0;
        }
        List<Path> maps;
        try (Stream<Path> s = Files.walk(root)) {
            maps = s.filter(p -> p.getFileName().toString().equals("inventory-map.json") && Files.isRegularFile(p)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        maps.forEach(MapSchema::assertValid);
        return maps.size();
    }
}
