package io.cloudg.mcp.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.time.ManualTimeSource;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dataset directory the system refuses is named with the system's reason, as every cloudg file message. */
class DatasetStoreFilesTest {
    @TempDir
    Path dir;

    @Test
    void aDatasetDirectoryThatCannotBeCreatedSaysWhy() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("datasets"), "a file where the datasets should go\n");
        DatasetStore store = new DatasetStore(notADirectory, new ManualTimeSource());

        // the path once and the system's words (Java's own message repeats the path and, for a refusal, says no more)
        assertThatThrownBy(store::begin).isInstanceOf(UncheckedIOException.class)
                .hasMessageMatching("cannot create \\Q" + notADirectory + "\\E/\\.staging-ds-[^:/]+: Not a directory");
        assertThat(store.list()).as("nothing to list there").isEmpty();
    }
}
