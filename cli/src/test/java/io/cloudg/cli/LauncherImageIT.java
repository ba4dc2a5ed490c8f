package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The container image's entry point as Jib lays it out (issue 39): the {@code cloudg} launcher at {@code /app/cloudg}
 * beside {@code /app/classes}, {@code /app/resources} and {@code /app/libs}, the image's JVM options in
 * {@code JAVA_OPTS} and the user's in {@code CLOUDG_JAVA_OPTS}. Built here from cli/target in a directory of that
 * shape, and run as a pod runs it with {@code --log-format json}: every line on stderr is a JSON object (no JVM
 * "Picked up ..." banner before the first one), the map's summary is one of them, stdout stays empty. The class
 * list the image ships at {@code /app/cloudg.classes} (the pom's jib profile) is what the map preloads.
 */
class LauncherImageIT {
    @Test
    void theImagesLauncherRunsJibsLayoutAndAJsonPodWritesOnlyJsonOnStderr() throws Exception {
        Path dir = Launcher.workDir("image");
        Path app = Files.createDirectories(dir.resolve("app"));
        Path launcher = app.resolve("cloudg");
        Files.copy(Launcher.CLOUDG, launcher, StandardCopyOption.COPY_ATTRIBUTES);
        Files.createSymbolicLink(app.resolve("classes"), Launcher.ROOT.resolve("cli/target/classes"));
        Files.createSymbolicLink(app.resolve("libs"), Launcher.ROOT.resolve("cli/target/lib"));
        Files.createDirectories(app.resolve("resources"));
        Path classList = Launcher.ROOT.resolve("cli/target/cloudg.classes");
        boolean shipsList = !Boolean.getBoolean("cloudg.cds.skip"); // the list is made with the archive
        if (shipsList) {
            Files.copy(classList, app.resolve("cloudg.classes"));
        }
        Path out = dir.resolve("maps");

        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "--log-format", "json", "--log-level", "debug", "map", "--sim", "-p", "aws",
                "--out", out.toString(), "--no-progress").directory(dir.toFile());
        Map<String, String> env = pb.environment();
        env.remove("CLOUDG_CONFIG");
        env.remove("JAVA_TOOL_OPTIONS");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        env.put("JAVA_OPTS", "-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"); // the image's
        env.put("CLOUDG_JAVA_OPTS", "-XX:MaxRAMPercentage=70"); // a manifest's
        Launcher.Result r;
        try (Launcher.Running running = new Launcher.Running("(image) map --sim", pb.start())) {
            running.stdin().close();
            r = running.await(Launcher.HANG);
        }
        r.exits(ExitCodes.OK);
        assertThat(r.out()).as("stdout stays for data").isEmpty();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : r.err().split("\n")) {
            assertThat(line).as("a line that is not JSON on a JSON pod's stderr").startsWith("{").doesNotContain("Picked up");
            lines.add(new ObjectMapper().readTree(line));
        }
        assertThat(lines).filteredOn(n -> n.path("event.action").asText().equals("map-finished")).singleElement()
                .satisfies(n -> {
                    assertThat(n.get("exit_code").asInt()).isZero();
                    assertThat(n.get("map").asText()).isEqualTo(out.resolve("inventory-map.json").toString());
                });
        assertThat(out.resolve("inventory-map.json")).exists();
        List<String> preloads = lines.stream().map(n -> n.path("message").asText()).filter(m -> m.startsWith("preloaded "))
                .toList();
        if (shipsList) {
            assertThat(preloads).as("the image's class list preloaded").singleElement().asString()
                    .endsWith(" from " + app.resolve("cloudg.classes"));
        } else {
            assertThat(preloads).as("no class list, no preload").allSatisfy(m -> assertThat(m).startsWith("preloaded 0 of 0 "));
        }
    }
}
