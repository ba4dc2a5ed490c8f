package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.mcp.config.McpSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * What README.md and docs/*.md tell a user to run works as written. A fenced block after
 * {@code <!-- runnable: exit=N -->} is run with bash in a fresh directory where {@code ./cloudg} is this build,
 * and must exit N; {@code <!-- runnable: background port=P -->} starts a server (a cloud-sim) for the blocks
 * after it in the same file, on a free port that replaces P everywhere in that file. Every YAML block whose
 * top-level keys are cloudg sections loads without a warning ({@code <!-- not-config -->} marks other YAML).
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
    Stream<DynamicTest> runnableCommandsExitAsTheTextSays() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path doc : docs()) {
            List<Block> runnable = blocks(doc).stream().filter(b -> b.marker().startsWith("runnable:")).toList();
            if (!runnable.isEmpty()) {
                tests.add(DynamicTest.dynamicTest(ROOT.relativize(doc).toString(), () -> runAll(doc, runnable)));
            }
        }
        assertThat(tests).as("README.md has runnable examples").isNotEmpty();
        return tests.stream();
    }

    private static void runAll(Path doc, List<Block> blocks) throws Exception {
        Path dir = Files.createTempDirectory("cloudg-docs-");
        Path launcher = dir.resolve("cloudg");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(launcher, "#!/usr/bin/env bash\nexec '" + java + "' -cp '" + System.getProperty("java.class.path")
                + "' io.cloudg.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<Process> background = new ArrayList<>();
        Map<String, String> ports = new java.util.HashMap<>();
        try {
            for (Block b : blocks) {
                for (String p : b.marker().split("\\s+")) {
                    if (p.startsWith("port=") && !ports.containsKey(p.substring(5))) {
                        try (ServerSocket s = new ServerSocket(0)) {
                            ports.put(p.substring(5), Integer.toString(s.getLocalPort()));
                        }
                    }
                }
            }
            for (Block b : blocks) {
                String script = b.text();
                for (Map.Entry<String, String> e : ports.entrySet()) {
                    script = script.replace(e.getKey(), e.getValue());
                }
                String where = ROOT.relativize(b.file()) + ":" + b.line();
                ProcessBuilder pb = new ProcessBuilder("bash", "-e", "-c", script).directory(dir.toFile())
                        .redirectErrorStream(true).redirectOutput(dir.resolve("block-" + b.line() + ".log").toFile());
                pb.environment().put("CLOUDG_LOG_LEVEL", "WARN");
                pb.environment().remove("CLOUDG_CONFIG");
                pb.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
                if (b.marker().contains("background")) {
                    Process p = pb.start();
                    background.add(p);
                    String port = value(b.marker(), "port");
                    awaitPort(p, Integer.parseInt(ports.get(port)), where, dir.resolve("block-" + b.line() + ".log"));
                    continue;
                }
                int expected = Integer.parseInt(value(b.marker(), "exit"));
                Process p = pb.start();
                assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("%s finished", where).isTrue();
                String log = Files.readString(dir.resolve("block-" + b.line() + ".log"));
                assertThat(p.exitValue()).as("%s exit code; output:%n%s", where, log).isEqualTo(expected);
            }
        } finally {
            for (Process p : background) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static String value(String marker, String key) {
        for (String p : marker.split("\\s+")) {
            if (p.startsWith(key + "=")) {
                return p.substring(key.length() + 1);
            }
        }
        throw new AssertionError("the marker \"" + marker + "\" has no " + key + "=");
    }

    private static void awaitPort(Process p, int port, String where, Path log) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(p.isAlive()).as("%s is still running; output:%n%s", where, Files.exists(log) ? Files.readString(log) : "")
                    .isTrue();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200); // a real server starting in another process: nothing to synchronize on but its port
            }
        }
        throw new AssertionError(where + " did not listen on port " + port);
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
