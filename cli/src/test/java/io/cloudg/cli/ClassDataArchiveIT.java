package io.cloudg.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The package phase's class-data archive (cli/src/build/class-data-archive.sh) and the cloudg launcher that
 * uses it, run as a user runs them: after {@code package}, {@code ./cloudg} from the repository's root.
 */
class ClassDataArchiveIT {
    static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    static final Path TARGET = ROOT.resolve("cli/target");

    /** The launcher's output with CLOUDG_JAVA_OPTS={@code javaOpts}, stdout and stderr merged. */
    static Result launch(String javaOpts, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(ROOT.resolve("cloudg").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("CLOUDG_JAVA_OPTS", javaOpts);
        // the launcher runs the JVM that built the archive (this one) unless JAVA_HOME says otherwise
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the launcher did not end");
        return new Result(p.exitValue(), out);
    }

    record Result(int exit, String output) {
    }

    @Test
    void theBuildMadeAnArchiveForThisJvmAndTheLauncherStartsWithIt() throws Exception {
        assumeFalse(Boolean.getBoolean("cloudg.cds.skip"), "built with -Dcloudg.cds.skip: no archive to use");
        Path jsa = TARGET.resolve("cloudg.jsa");
        assertTrue(Files.size(jsa) > 0, "no archive at " + jsa + ": " + tail(TARGET.resolve("cds/dump.log")));
        String stamp = Files.readString(TARGET.resolve("cloudg.jsa.jvm")).trim();
        assertTrue(stamp.startsWith(Path.of(System.getProperty("java.home"), "bin", "java").toRealPath() + " "),
                "the archive's JVM must be this one, but was " + stamp);

        Result on = launch("-Xlog:class+load=info", "--version");
        assertEquals(0, on.exit(), on.output());
        // the CLI's own class and a library's come from the archive, not from their jars (not picocli.CommandLine
        // itself: picocli's Java 5 class files, once linked by the dump, are left out by JDK 25: "Old class has been
        // linked", 156 classes of the 29,700)
        assertTrue(on.output().contains("io.cloudg.cli.Main source: shared objects file"), on.output());
        assertTrue(on.output().contains("org.slf4j.bridge.SLF4JBridgeHandler source: shared objects file"), on.output());
        assertTrue(on.output().contains("cloudg "), on.output());

        Result off = launch("-Xshare:off -Xlog:class+load=info", "--version");
        assertEquals(0, off.exit(), off.output());
        assertTrue(off.output().contains("io.cloudg.cli.Main source: file:"), off.output());
    }

    @Test
    void anArchiveOfAnotherJvmIsNotPassedAndNothingIsPrinted() throws Exception {
        assumeFalse(Boolean.getBoolean("cloudg.cds.skip"), "built with -Dcloudg.cds.skip: no archive to use");
        Path stampFile = TARGET.resolve("cloudg.jsa.jvm");
        String stamp = Files.readString(stampFile);
        try {
            Files.writeString(stampFile, "/opt/another/jdk/bin/java JAVA_RUNTIME_VERSION=\"99\"\n");
            Result r = launch("-Xlog:class+load=info", "--version");
            assertEquals(0, r.exit(), r.output());
            assertTrue(r.output().contains("io.cloudg.cli.Main source: file:"), r.output());
            assertTrue(!r.output().contains("[cds]") && !r.output().contains("shared archive"), r.output());
        } finally {
            Files.writeString(stampFile, stamp);
        }
    }

    static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no " + log + ")";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
