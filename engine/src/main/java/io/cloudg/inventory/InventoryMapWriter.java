package io.cloudg.inventory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.cloudg.resilience.report.ThrottlingReport;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code inventory-map.json}: {@code format}, {@code run}, {@code summary}, {@code coverage} (one
 * record per line), {@code throttling} (only when eventful) and {@code assets} (one per line), the last
 * streamed from the spool so that memory stays flat. The file appears atomically (written beside it, then
 * renamed), so a reader never sees half a map, and a write that fails leaves nothing beside it.
 */
public final class InventoryMapWriter {
    public static final String FORMAT = "cloudg.inventory-map/1";
    public static final String FILE_NAME = "inventory-map.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectWriter PRETTY = JSON.writerWithDefaultPrettyPrinter();
    private static final ObjectWriter LINE = JSON.writer();

    private InventoryMapWriter() {
    }

    public static Path write(Path outDir, Map<String, Object> run, Summary summary, List<CoverageRecord> coverage,
                             ThrottlingReport throttling, AssetSpool assets) {
        Path target = outDir.resolve(FILE_NAME);
        Path tmp = null;
        try {
            Files.createDirectories(outDir);
            tmp = Files.createTempFile(outDir, ".inventory-map-", ".json.tmp");
            try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                w.write("{\n  \"format\": ");
                w.write(LINE.writeValueAsString(FORMAT));
                field(w, "run", PRETTY.writeValueAsString(run));
                field(w, "summary", PRETTY.writeValueAsString(summary));
                w.write(",\n  \"coverage\": [");
                boolean first = true;
                for (CoverageRecord r : coverage) {
                    w.write(first ? "\n    " : ",\n    ");
                    w.write(LINE.writeValueAsString(r));
                    first = false;
                }
                w.write(first ? "]" : "\n  ]");
                if (throttling != null && throttling.eventful()) {
                    field(w, "throttling", PRETTY.writeValueAsString(throttling));
                }
                w.write(",\n  \"assets\": [");
                boolean[] none = {true};
                assets.forEachLine(line -> {
                    try {
                        w.write(none[0] ? "\n    " : ",\n    ");
                        w.write(line);
                        none[0] = false;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                w.write(none[0] ? "]" : "\n  ]");
                w.write("\n}\n");
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException | UncheckedIOException e) {
            RunFiles.removeTemporary(tmp);
            IOException cause = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            throw FileErrors.cannot("write", target, cause);
        }
    }

    private static void field(Writer w, String name, String prettyJson) throws IOException {
        w.write(",\n  \"");
        w.write(name);
        w.write("\": ");
        w.write(prettyJson.replace("\n", "\n  "));
    }
}
