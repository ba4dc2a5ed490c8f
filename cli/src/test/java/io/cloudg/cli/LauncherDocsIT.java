package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.fleet.local.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * What README.md and docs/*.md tell a user to run works as written, through the launcher as built. A fenced block
 * after {@code <!-- runnable: exit=N -->} runs with bash in a fresh directory where {@code ./cloudg} is the
 * repository's launcher, and must exit N with no stack trace in its output; {@code <!-- runnable: background
 * port=P -->} starts a server (a cloud-sim) for the blocks after it in the same file, on a free port that
 * replaces P everywhere in that file, and the blocks after it run once it printed its address. This runs the
 * README's demo map ({@code map --sim}), its standalone sim mapped like a real cloud, and docs/ratelimit.md's
 * {@code ratelimit show|reset}.
 */
class LauncherDocsIT {
    @TestFactory
    Stream<DynamicTest> runnableCommandsExitAsTheTextSays() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path doc : DocsTest.docs()) {
            List<DocsTest.Block> runnable = DocsTest.blocks(doc).stream().filter(b -> b.marker().startsWith("runnable:")).toList();
            if (!runnable.isEmpty()) {
                tests.add(DynamicTest.dynamicTest(DocsTest.ROOT.relativize(doc).toString(), () -> runAll(doc, runnable)));
            }
        }
        assertThat(tests).as("README.md has runnable examples").isNotEmpty();
        return tests.stream();
    }

    private static void runAll(Path doc, List<DocsTest.Block> blocks) throws Exception {
        Path dir = Launcher.workDir("docs-" + doc.getFileName().toString().replace(".md", ""));
        Path cloudg = dir.resolve("cloudg");
        Files.writeString(cloudg, "#!/usr/bin/env bash\nexec '" + Launcher.CLOUDG + "' \"$@\"\n");
        Files.setPosixFilePermissions(cloudg, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> ports = new HashMap<>();
        for (DocsTest.Block b : blocks) {
            for (String p : b.marker().split("\\s+")) {
                if (p.startsWith("port=")) {
                    ports.computeIfAbsent(p.substring(5), k -> Integer.toString(FreePorts.pair()) /* HTTP on P, gRPC on P + 1 */);
                }
            }
        }
        List<Process> background = new ArrayList<>();
        try {
            for (DocsTest.Block b : blocks) {
                String script = b.text();
                for (Map.Entry<String, String> e : ports.entrySet()) {
                    script = script.replace(e.getKey(), e.getValue());
                }
                String where = DocsTest.ROOT.relativize(b.file()) + ":" + b.line();
                ProcessBuilder pb = Launcher.builder(dir, Map.of(), List.of()).command("bash", "-e", "-c", script)
                        .redirectErrorStream(true);
                Process p = pb.start();
                Launcher.Output output = new Launcher.Output(p.getInputStream(), where);
                p.getOutputStream().close();
                if (b.marker().contains("background")) {
                    background.add(p);
                    String port = ports.get(value(b.marker(), "port"));
                    Launcher.Found ready = output.awaitLine(Pattern.compile(":" + port + "\\b"), 0, Launcher.HANG);
                    assertThat(ready).as("%s never printed its address (port %s); output:%n%s", where, port, output.text())
                            .isNotNull();
                    continue;
                }
                int expected = Integer.parseInt(value(b.marker(), "exit"));
                assertThat(p.waitFor(Launcher.HANG.toMinutes(), TimeUnit.MINUTES)).as("%s finished", where).isTrue();
                output.awaitEnd(Duration.ofSeconds(30));
                assertThat(p.exitValue()).as("%s exit code; output:%n%s", where, output.text()).isEqualTo(expected);
                Launcher.assertNoStackTrace(where, output.text());
            }
        } finally {
            for (Process p : background) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                p.waitFor(30, TimeUnit.SECONDS);
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
}
