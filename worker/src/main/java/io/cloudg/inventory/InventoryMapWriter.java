package io.cloudg.inventory;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cloudg.resilience.report.ThrottlingReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code inventory-map.json}: {@code format}, {@code run}, {@code summary}, {@code coverage},
 * {@code throttling} (only when eventful) and {@code assets}, the last streamed line by line from the
 * spool so that memory stays flat. The file appears atomically (written beside it, then renamed).
 */
public final class InventoryMapWriter {
    public static final String FORMAT = "cloudg.inventory-map/1";
    public static final String FILE_NAME = "inventory-map.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private InventoryMapWriter() {
    }

    public static Path write(Path outDir, Map<String, Object> run, Summary summary, List<CoverageRecord> coverage,
                             ThrottlingReport throttling, AssetSpool assets) {
        try {
            Files.createDirectories(outDir);
            Path target = outDir.resolve(FILE_NAME);
            Path tmp = Files.createTempFile(outDir, ".inventory-map-", ".json.tmp");
            try (JsonGenerator g = JSON.getFactory().createGenerator(tmp.toFile(), JsonEncoding.UTF8)) {
                g.setCodec(JSON);
                g.writeStartObject();
                g.writeStringField("format", FORMAT);
                g.writeFieldName("run");
                JSON.writerWithDefaultPrettyPrinter().writeValue(g, run);
                g.writeFieldName("summary");
                JSON.writeValue(g, summary);
                g.writeArrayFieldStart("coverage");
                for (CoverageRecord r : coverage) {
                    g.writeRaw("\n    ");
                    g.writeRawValue(JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(r));
                }
                g.writeRaw("\n  ");
                g.writeEndArray();
                if (throttling != null && throttling.eventful()) {
                    g.writeFieldName("throttling");
                    JSON.writeValue(g, throttling);
                }
                g.writeArrayFieldStart("assets");
                assets.forEachLine(line -> {
                    try {
                        g.writeRaw("\n    ");
                        g.writeRawValue(line);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                g.writeRaw("\n  ");
                g.writeEndArray();
                g.writeEndObject();
                g.writeRaw('\n');
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + outDir.resolve(FILE_NAME) + ": " + e.getMessage(), e);
        }
    }
}
