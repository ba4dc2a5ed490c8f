package io.cloudg.resilience.memory;

import io.cloudg.resilience.spi.LearnedStateContract;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.time.ManualTimeSource;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The learned-state contract against the embedded governor's store: a run's rates go to the state file. */
class LearningStateStoreContractTest extends LearnedStateContract {
    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("learned-rates.json");
    }

    @Override
    protected StateStore openRun(ManualTimeSource time) {
        return new LearningStateStore(new InMemoryStateStore(time), new LearnedRatesFile(file()), 24);
    }

    @Override
    protected void forgetAll() throws Exception {
        Files.deleteIfExists(file());
    }
}
