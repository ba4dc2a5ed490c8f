package io.cloudg.preload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 37's deadlock reproduced in a child JVM ({@link PinnedLoadScenario}) with 1 and 2 carriers: without a
 * preload it hangs every time (the scenario's deadline says so); with {@link ClassPreload} having loaded the jobs'
 * class on a platform thread first, the same steps end.
 *
 * <p>The four child JVMs start together before the tests: the two that hang spend the scenario's
 * {@value PinnedLoadScenario#DEADLINE_SECONDS}-s deadline waiting, at no CPU, and one after the other they kept
 * the module's build waiting for 30 s.
 */
class PinnedClassLoadDeadlockTest {
    /** Far beyond the scenario's own deadline: only a scenario that cannot even report reaches it. */
    private static final long CHILD_BOUND_SECONDS = 120;
    private static final Map<String, Child> CHILDREN = new ConcurrentHashMap<>();

    @TempDir
    static Path dir;

    private record Child(Process process, Path output) {
    }

    private record Outcome(int exit, String output) {
    }

    @BeforeAll
    static void startEveryScenario() throws IOException {
        for (String mode : new String[] {"none", "preload"}) {
            for (int carriers : new int[] {1, 2}) {
                Path out = dir.resolve(mode + "-" + carriers + ".txt");
                Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Djdk.virtualThreadScheduler.parallelism=" + carriers,
                        "-cp", System.getProperty("java.class.path"), PinnedLoadScenario.class.getName(), mode)
                        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
                CHILDREN.put(mode + "/" + carriers, new Child(p, out));
            }
        }
    }

    @AfterAll
    static void stopWhatIsLeft() {
        CHILDREN.values().forEach(c -> c.process().destroyForcibly());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void withoutPreloadTheJobsPinnedInClassLoadingDeadlockEveryCarrier(int carriers) throws Exception {
        Outcome o = outcome(carriers, "none");
        assertThat(o.exit).as(o.output).isEqualTo(PinnedLoadScenario.HANG);
        assertThat(o.output).contains("monitor-holder RUNNABLE").contains("platform-loader BLOCKED")
                .contains("job-0 BLOCKED");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void withThePreloadTheSameStepsEnd(int carriers) throws Exception {
        Outcome o = outcome(carriers, "preload");
        assertThat(o.exit).as(o.output).isZero();
        assertThat(o.output).contains("ENDED").contains("loaded=1");
    }

    private static Outcome outcome(int carriers, String mode) throws IOException, InterruptedException {
        Child c = CHILDREN.get(mode + "/" + carriers);
        if (!c.process().waitFor(CHILD_BOUND_SECONDS, TimeUnit.SECONDS)) {
            c.process().destroyForcibly();
        }
        c.process().waitFor();
        return new Outcome(c.process().exitValue(), Files.readString(c.output(), StandardCharsets.UTF_8));
    }
}
