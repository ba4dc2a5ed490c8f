package io.cloudg.preload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 37's deadlock reproduced in a child JVM ({@link PinnedLoadScenario}) with 1 and 2 carriers: without a
 * preload it hangs every time (the scenario's deadline says so); with {@link ClassPreload} having loaded the jobs'
 * class on a platform thread first, the same steps end.
 */
class PinnedClassLoadDeadlockTest {
    /** Far beyond the scenario's own deadline: only a scenario that cannot even report reaches it. */
    private static final long CHILD_BOUND_SECONDS = 120;

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void withoutPreloadTheJobsPinnedInClassLoadingDeadlockEveryCarrier(int carriers) throws Exception {
        Outcome o = scenario(carriers, "none");
        assertThat(o.exit).as(o.output).isEqualTo(PinnedLoadScenario.HANG);
        assertThat(o.output).contains("monitor-holder RUNNABLE").contains("platform-loader BLOCKED")
                .contains("job-0 BLOCKED");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void withThePreloadTheSameStepsEnd(int carriers) throws Exception {
        Outcome o = scenario(carriers, "preload");
        assertThat(o.exit).as(o.output).isZero();
        assertThat(o.output).contains("ENDED").contains("loaded=1");
    }

    private record Outcome(int exit, String output) {
    }

    private static Outcome scenario(int carriers, String mode) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Djdk.virtualThreadScheduler.parallelism=" + carriers,
                "-cp", System.getProperty("java.class.path"), PinnedLoadScenario.class.getName(), mode)
                .redirectErrorStream(true).start();
        byte[] out;
        try (var in = p.getInputStream()) {
            if (!p.waitFor(CHILD_BOUND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            out = in.readAllBytes();
        }
        p.waitFor();
        return new Outcome(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
