package io.cloudg.diff;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageEntry;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Collects a diff's changes as {@link MapDiff} finds them (in temporary JSON-lines files, so a diff of a
 * million changes takes no more memory than one), then writes them for people ({@link #writeText}: counts,
 * then up to a limit of lines per kind) or for programs ({@link #writeJson}, format {@code cloudg.diff/1}:
 * {@code old}, {@code new}, {@code summary}, then every change).
 */
public final class DiffReport implements MapDiff.Listener, AutoCloseable {
    public static final String FORMAT = "cloudg.diff/1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private enum Kind { ADDED, REMOVED, CHANGED, COVERAGE }

    private final Path dir;
    private final Map<Kind, Path> files = new EnumMap<>(Kind.class);
    private final Map<Kind, BufferedWriter> writers = new EnumMap<>(Kind.class);

    public DiffReport(Path tmp) {
        try {
            Files.createDirectories(tmp);
            this.dir = Files.createTempDirectory(tmp, ".cloudg-diff-");
            for (Kind k : Kind.values()) {
                Path f = dir.resolve(k.name().toLowerCase(Locale.ROOT) + ".jsonl");
                files.put(k, f);
                writers.put(k, Files.newBufferedWriter(f, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a working directory in " + tmp + ": " + e.getMessage(), e);
        }
    }

    private void write(Kind k, Object line) {
        try {
            BufferedWriter w = writers.get(k);
            w.write(JSON.writeValueAsString(line));
            w.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + files.get(k) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void added(Asset a) {
        write(Kind.ADDED, a);
    }

    @Override
    public void removed(Asset a) {
        write(Kind.REMOVED, a);
    }

    @Override
    public void changed(Asset before, Asset after, Map<String, MapDiff.FieldChange> fields) {
        ObjectNode n = identity(after);
        ObjectNode f = n.putObject("fields");
        fields.forEach((name, c) -> {
            ObjectNode ch = f.putObject(name);
            ch.set("old", JSON.valueToTree(c.before()));
            ch.set("new", JSON.valueToTree(c.after()));
        });
        write(Kind.CHANGED, n);
    }

    @Override
    public void coverage(MapDiff.CoverageChange c) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", c.id());
        n.put("movement", c.movement().name());
        n.set("old", entry(c.before()));
        n.set("new", entry(c.after()));
        write(Kind.COVERAGE, n);
    }

    private static JsonNode entry(CoverageEntry e) {
        if (e == null) {
            return JSON.nullNode();
        }
        ObjectNode n = JSON.createObjectNode();
        n.put("status", e.status().name());
        n.put("asset_count", e.assetCount());
        n.put("error", e.error());
        return n;
    }

    private static ObjectNode identity(Asset a) {
        ObjectNode n = JSON.createObjectNode();
        n.put("provider", a.provider());
        n.put("account_id", a.accountId());
        n.put("region", a.region());
        n.put("type", a.type());
        n.put("id", a.id());
        if (a.name() != null) {
            n.put("name", a.name());
        }
        return n;
    }

    private void flush() {
        for (BufferedWriter w : writers.values()) {
            try {
                w.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void lines(Kind k, int limit, Consumer<JsonNode> each) {
        flush();
        try (BufferedReader r = Files.newBufferedReader(files.get(k), StandardCharsets.UTF_8)) {
            int n = 0;
            for (String line = r.readLine(); line != null && n < limit; line = r.readLine(), n++) {
                each.accept(JSON.readTree(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + files.get(k) + ": " + e.getMessage(), e);
        }
    }

    private static String side(DiffSide s) {
        return s.label() + (s.runId() == null ? "" : " (run " + s.runId()
                + (s.finishedAt() == null ? "" : ", finished " + s.finishedAt()) + ")");
    }

    /** The diff for people: what was compared, the counts, then up to {@code limit} lines of each kind. */
    public void writeText(PrintStream out, DiffSide before, DiffSide after, MapDiff.Counts c, int limit) {
        out.println("old: " + side(before));
        out.println("new: " + side(after));
        out.printf(Locale.ROOT, "Assets: %d added, %d removed, %d changed, %d unchanged%n", c.added(), c.removed(),
                c.changed(), c.unchanged());
        out.printf(Locale.ROOT, "Coverage: %d worse, %d better, %d appeared, %d disappeared%n", c.worse(), c.better(),
                c.appeared(), c.disappeared());
        text(out, Kind.COVERAGE, c.worse() + c.better() + c.appeared() + c.disappeared(), limit, n -> {
            JsonNode o = n.get("old");
            JsonNode w = n.get("new");
            String from = o.isNull() ? "(absent)" : o.get("status").asText();
            String to = w.isNull() ? "(absent)" : w.get("status").asText();
            String why = !w.isNull() && !w.get("error").isNull() ? ": " + w.get("error").asText() : "";
            return String.format(Locale.ROOT, "  %-11s %s %s -> %s%s", n.get("movement").asText().toLowerCase(Locale.ROOT),
                    n.get("id").asText(), from, to, why);
        });
        text(out, Kind.ADDED, c.added(), limit, n -> "  + " + ident(n));
        text(out, Kind.REMOVED, c.removed(), limit, n -> "  - " + ident(n));
        text(out, Kind.CHANGED, c.changed(), limit, n -> {
            StringBuilder b = new StringBuilder("  ~ ").append(ident(n)).append(':');
            n.get("fields").fields().forEachRemaining(f -> b.append(' ').append(f.getKey()).append(' ')
                    .append(show(f.getValue().get("old"))).append(" -> ").append(show(f.getValue().get("new"))).append(';'));
            b.setLength(b.length() - 1);
            return b.toString();
        });
        if (!c.any()) {
            out.println("No change.");
        }
    }

    private void text(PrintStream out, Kind k, long total, int limit, java.util.function.Function<JsonNode, String> line) {
        lines(k, limit, n -> out.println(line.apply(n)));
        if (total > limit) {
            out.printf(Locale.ROOT, "  ... and %d more %s (--json lists them all)%n", total - limit,
                    k == Kind.COVERAGE ? "coverage changes" : k.name().toLowerCase(Locale.ROOT));
        }
    }

    private static String ident(JsonNode n) {
        return n.get("provider").asText() + "/" + n.get("account_id").asText() + "/" + n.get("region").asText() + " "
                + n.get("type").asText() + " " + n.get("id").asText();
    }

    private static String show(JsonNode v) {
        if (v == null || v.isNull()) {
            return "(absent)";
        }
        String s = v.isTextual() ? v.asText() : v.toString();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    /** The diff for programs: {@code {"format", "old", "new", "summary", "assets": {added, removed, changed}, "coverage"}}. */
    public void writeJson(Writer w, DiffSide before, DiffSide after, MapDiff.Counts c) {
        try (JsonGenerator g = JSON.getFactory().createGenerator(w)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("format", FORMAT);
            sideJson(g, "old", before);
            sideJson(g, "new", after);
            g.writeObjectFieldStart("summary");
            g.writeBooleanField("changed", c.any());
            g.writeObjectFieldStart("assets");
            g.writeNumberField("added", c.added());
            g.writeNumberField("removed", c.removed());
            g.writeNumberField("changed", c.changed());
            g.writeNumberField("unchanged", c.unchanged());
            g.writeEndObject();
            g.writeObjectFieldStart("coverage");
            g.writeNumberField("worse", c.worse());
            g.writeNumberField("better", c.better());
            g.writeNumberField("appeared", c.appeared());
            g.writeNumberField("disappeared", c.disappeared());
            g.writeEndObject();
            g.writeEndObject();
            g.writeObjectFieldStart("assets");
            for (Kind k : new Kind[] {Kind.ADDED, Kind.REMOVED, Kind.CHANGED}) {
                g.writeArrayFieldStart(k.name().toLowerCase(Locale.ROOT));
                lines(k, Integer.MAX_VALUE, n -> tree(g, n));
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeArrayFieldStart("coverage");
            lines(Kind.COVERAGE, Integer.MAX_VALUE, n -> tree(g, n));
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void tree(JsonGenerator g, JsonNode n) {
        try {
            JSON.writeTree(g, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sideJson(JsonGenerator g, String name, DiffSide s) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("source", s.label());
        g.writeStringField("run_id", s.runId());
        g.writeStringField("finished_at", s.finishedAt());
        g.writeEndObject();
    }

    @Override
    public void close() {
        for (BufferedWriter w : writers.values()) {
            try {
                w.close();
            } catch (IOException e) {
                // closing before deleting
            }
        }
        for (Path f : files.values()) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                // a temporary file left behind is not worth failing a diff for
            }
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // likewise
        }
    }
}
