package io.cloudg.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileErrorsTest {
    @TempDir
    Path dir;

    @Test
    void theExceptionsJavaRaisesWithoutTheSystemsWordsGetThem() {
        Path p = Path.of("/srv/out/inventory-map.json");
        assertThat(FileErrors.cannot("write", p, new AccessDeniedException(p.toString())))
                .hasMessage("cannot write /srv/out/inventory-map.json: Permission denied");
        assertThat(FileErrors.reason(new NoSuchFileException("/srv/out"), p)).isEqualTo("No such file or directory (/srv/out)");
        assertThat(FileErrors.reason(new FileSystemException("/srv/out/.x.tmp", p.toString(), "Is a directory"), p))
                .as("a rename onto the target names no other file").isEqualTo("Is a directory");
        assertThat(FileErrors.reason(new IOException("No space left on device"), p)).isEqualTo("No space left on device");
    }

    @Test
    void aWriteUnderARegularFileSaysNotADirectory() throws Exception {
        Path file = Files.writeString(dir.resolve("runs"), "x");
        Path target = file.resolve("r1/inventory-map.json");
        assertThatThrownBy(() -> {
            try {
                Files.createDirectories(target.getParent());
            } catch (IOException e) {
                throw FileErrors.cannot("write", target, e);
            }
        }).isInstanceOf(UncheckedIOException.class).hasMessageStartingWith("cannot write " + target + ": ")
                .hasMessageContaining("Not a directory").hasMessageNotContaining("FileSystemException");
    }
}
