package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.mcp.config.McpSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * What README.md and docs/*.md show a user is valid: every YAML block whose top-level keys are cloudg sections
 * loads without a warning ({@code <!-- not-config -->} marks other YAML). The blocks marked
 * {@code <!-- runnable: ... -->} are run through the launcher as built by {@link LauncherDocsIT}.
 */
class DocsTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Pattern BLOCK = Pattern.compile("(?:<!--\\s*([^>]*?)\\s*-->\\s*\\n)?```(\\w*)\\n(.*?)```", Pattern.DOTALL);

    record Block(Path file, int line, String marker, String lang, String text) {
    }

    static List<Path> docs() throws IOException {
        List<Path> out = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    static List<Block> blocks(Path file) throws IOException {
        String text = Files.readString(file);
        List<Block> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
            out.add(new Block(file, line, m.group(1) == null ? "" : m.group(1), m.group(2), m.group(3)));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyConfigExampleLoadsWithoutAWarning() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path doc : docs()) {
            for (Block b : blocks(doc)) {
                if (!b.lang().equals("yaml") || b.marker().contains("not-config") || !looksLikeConfig(b.text())) {
                    continue;
                }
                String where = ROOT.relativize(doc) + ":" + b.line();
                tests.add(DynamicTest.dynamicTest(where, () -> {
                    ConfigFile f = ConfigFile.fromYaml(b.text(), k -> null);
                    CloudGConfig.from(f);
                    FleetSettings.from(f);
                    McpSettings.from(f);
                    assertThat(f.warnings()).as(where).isEmpty();
                }));
            }
        }
        assertThat(tests).as("the docs hold config examples").hasSizeGreaterThan(3);
        return tests.stream();
    }

    /** A YAML block whose top-level keys are all sections of cloudg.yaml. */
    static boolean looksLikeConfig(String yaml) {
        List<String> top = yaml.lines().filter(l -> l.matches("^[A-Za-z_]+:.*")).map(l -> l.substring(0, l.indexOf(':'))).toList();
        return !top.isEmpty() && ConfigFile.topLevelKeys().containsAll(top);
    }
}
