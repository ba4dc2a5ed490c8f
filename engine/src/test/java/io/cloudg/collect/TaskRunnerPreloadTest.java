package io.cloudg.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.preload.ClassPreload;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.report.ThrottlingStats;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The embedded map starts no job before the class preload has ended (issue 37). In a test JVM the preload has no
 * list, so it ends at once; nothing else in this module starts it, so a runner that did not wait for it would start
 * its first job with the preload never started.
 */
class TaskRunnerPreloadTest {
    @Test
    void theFirstJobStartsOnlyOnceThePreloadHasEnded() throws Exception {
        AtomicBoolean endedWhenTheJobRan = new AtomicBoolean();
        CollectionTask task = new CollectionTask("aws", "a1", "r1",
                List.of(new CollectorJob("vpc", sink -> endedWhenTheJobRan.set(ClassPreload.global().ended()))));
        try (Governor g = Governor.builder().build()) {
            new TaskRunner(1, Coverage.of(g), new ThrottlingStats(), a -> { }, (t, r, d, n) -> { }).run(List.of(task));
        }
        assertThat(endedWhenTheJobRan).isTrue();
    }
}
