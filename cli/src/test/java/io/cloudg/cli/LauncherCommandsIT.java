package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The short commands through the launcher as built: {@code --version}, {@code completion bash|zsh},
 * {@code collectors} (and its IAM policy), and a mistyped command or argument (exit 2, one line); the JVM the
 * launcher picks (Java 25 or newer: JAVA_HOME's, the java on PATH, else the one the build used; refused in one line
 * without one) and that Netty and gRPC start on it without a JDK warning. The commands that map, serve or run a
 * fleet are in LauncherDocsIT, LauncherMcpIT and LauncherFleetIT.
 */
class LauncherCommandsIT {
    static Path dir;

    @BeforeAll
    static void dir() throws Exception {
        dir = Launcher.workDir("commands");
    }

    @Test
    void versionNamesTheReleaseTheCommitAndTheJvm() {
        Launcher.Result r = Launcher.run(dir, "--version").exits(0);
        assertThat(r.out()).containsPattern("^cloudg \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit \\w+\\)")
                .contains("Java " + System.getProperty("java.version"));
        assertThat(r.err()).isEmpty();
    }

    @Test
    void completionWritesAScriptForBashAndZshAndRefusesOtherShells() {
        Launcher.Result bash = Launcher.run(dir, "completion", "bash").exits(0);
        assertThat(bash.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_cloudg")
                .contains("map").contains("worker").contains("ratelimit").contains("collectors");
        Launcher.Result zsh = Launcher.run(dir, "completion", "zsh").exits(0);
        assertThat(zsh.out()).startsWith("autoload -U +X compinit && compinit").contains("bashcompinit");
        Launcher.Result fish = Launcher.run(dir, "completion", "fish").exits(2);
        assertThat(fish.err().strip()).isEqualTo("cloudg: SHELL must be bash or zsh, but was \"fish\" (see cloudg completion --help)");
    }

    @Test
    void collectorsListsEachCollectorWithItsCallsAndPermissionsAndThePolicy() throws Exception {
        Launcher.Result table = Launcher.run(dir, "collectors").exits(0);
        assertThat(table.out().lines().findFirst()).hasValueSatisfying(h -> assertThat(h)
                .containsPattern("^COLLECTOR +SERVICE +SCOPE +CALLS -> IAM ACTIONS$"));
        assertThat(table.out()).containsPattern("(?m)^subnets +ec2 +regional +DescribeSubnets -> ec2:DescribeSubnets$")
                .containsPattern("(?m)^\\d+ collector\\(s\\)");

        Launcher.Result policy = Launcher.run(dir, "collectors", "--policy").exits(0);
        JsonNode doc = new ObjectMapper().readTree(policy.out());
        assertThat(doc.path("Version").asText()).isEqualTo("2012-10-17");
        assertThat(doc.toString()).contains("ec2:DescribeSubnets");
    }

    @Test
    void aMistypedCommandIsOneLineAndExitCodeTwo() {
        Launcher.Result r = Launcher.run(dir, "mapp").exits(2);
        assertThat(r.err().strip()).isEqualTo("cloudg: Unmatched argument at index 0: 'mapp' (see cloudg --help)");
        assertThat(r.out()).isEmpty();
    }

    /**
     * A copy of the launcher beside the build's jar and lib/ (linked), its JVM rule, and {@code buildJvm} as the
     * java the build recorded (cli/target/build-jvm; null: none), so each case chooses what the build left.
     */
    static Path launcherCopy(String name, String buildJvm) throws IOException {
        Path root = Launcher.workDir(name);
        Path target = Files.createDirectories(root.resolve("cli/target"));
        Files.createSymbolicLink(target.resolve("cloudg-cli.jar"), Launcher.ROOT.resolve("cli/target/cloudg-cli.jar"));
        Files.createSymbolicLink(target.resolve("lib"), Launcher.ROOT.resolve("cli/target/lib"));
        Path build = Files.createDirectories(root.resolve("cli/src/build"));
        Files.copy(Launcher.ROOT.resolve("cli/src/build/jvm-identity.sh"), build.resolve("jvm-identity.sh"));
        Files.copy(Launcher.CLOUDG, root.resolve("cloudg"));
        Files.setPosixFilePermissions(root.resolve("cloudg"), PosixFilePermissions.fromString("rwxr-xr-x"));
        if (buildJvm != null) {
            Files.writeString(target.resolve("build-jvm"), buildJvm + "\n");
        }
        return root;
    }

    /** A JDK 17 as the launcher sees one (its release file); its java only says that it ran. */
    static Path oldJdk(Path dir) throws IOException {
        Path home = Files.createDirectories(dir.resolve("old-jdk/bin"));
        Files.writeString(dir.resolve("old-jdk/release"), "JAVA_VERSION=\"17.0.9\"\nJAVA_RUNTIME_VERSION=\"17.0.9+9\"\n");
        Path java = home.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'the old JVM ran' >&2\nexit 99\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir.resolve("old-jdk");
    }

    /** {@code ROOT/cloudg args} with JAVA_HOME (null: unset) and PATH (null: this one) given. */
    static Launcher.Result runCopy(Path root, String javaHome, String path, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(root.resolve("cloudg").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = Launcher.builder(root, Map.of(), command.subList(1, command.size()));
        pb.command(command);
        if (javaHome == null) {
            pb.environment().remove("JAVA_HOME");
        } else {
            pb.environment().put("JAVA_HOME", javaHome);
        }
        if (path != null) {
            pb.environment().put("PATH", path);
        }
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(Launcher.HANG.toMillis(), TimeUnit.MILLISECONDS)).as("%s still running", command).isTrue();
        return new Launcher.Result(String.join(" ", args), p.exitValue(), out, err);
    }

    @Test
    void aJvmOlderThan25IsRefusedInOneLineWhenTheBuildRecordedNone() throws Exception {
        Path root = launcherCopy("java-too-old", null);
        Path old = oldJdk(root);
        Launcher.Result home = runCopy(root, old.toString(), null, "--version").exits(2);
        assertThat(home.err()).isEqualTo("cloudg: needs Java 25 or newer, but JAVA_HOME (" + old + ") is Java 17; "
                + "set JAVA_HOME to a JDK 25 or later\n");
        assertThat(home.out()).isEmpty();

        Launcher.Result onPath = runCopy(root, null, old.resolve("bin") + ":/usr/bin:/bin", "--version").exits(2);
        assertThat(onPath.err()).isEqualTo("cloudg: needs Java 25 or newer, but the java on PATH is Java 17; "
                + "set JAVA_HOME to a JDK 25 or later\n");

        Launcher.Result none = runCopy(root, root.resolve("no-jdk").toString(), null, "--version").exits(2);
        assertThat(none.err()).isEqualTo("cloudg: needs Java 25 or newer, but JAVA_HOME (" + root.resolve("no-jdk")
                + ") has no java; set JAVA_HOME to a JDK 25 or later\n");
    }

    @Test
    void theJdkTheBuildUsedRunsWhenJavaHomeOrThePathsJavaIsOlder() throws Exception {
        String thisJava = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path root = launcherCopy("java-of-the-build", thisJava);
        Path old = oldJdk(root);
        for (Launcher.Result r : List.of(runCopy(root, old.toString(), null, "--version"),
                runCopy(root, null, old.resolve("bin") + ":/usr/bin:/bin", "--version"))) {
            r.exits(0);
            assertThat(r.out()).contains("Java " + System.getProperty("java.version"));
            assertThat(r.err()).isEmpty();
        }
        // a JAVA_HOME that is new enough wins over the build's record
        Path other = launcherCopy("java-home-wins", old.resolve("bin/java").toString());
        Launcher.Result r = runCopy(other, System.getProperty("java.home"), null, "--version").exits(0);
        assertThat(r.out()).contains("Java " + System.getProperty("java.version"));
    }

    @Test
    void nettyAndGrpcStartWithoutAJdkWarning() throws Exception {
        Path simDir = Launcher.workDir("sim-no-warning");
        try (Launcher.Running sim = Launcher.start(simDir, Map.of(), "sim", "--port", "0")) {
            // the banner comes once the HTTP (Netty) and gRPC servers are listening
            sim.expectLine(sim.out, Pattern.compile("^\\s+gcp"), Launcher.HANG);
            Launcher.Result stopped = sim.stop();
            assertThat(stopped.err()).doesNotContainPattern("(?m)^WARNING");
        }
    }
}
