package io.cloudg.cli.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether standard error is a terminal (the link of fd 2), and the width COLUMNS gives. */
class TerminalsTest {
    @TempDir
    Path dir;

    @Test
    void standardErrorIsATerminalWhenItsDescriptorLinksToATerminalDevice() throws Exception {
        Path pts = Files.createSymbolicLink(dir.resolve("pts"), Path.of("/dev/pts/3"));
        Path file = Files.createSymbolicLink(dir.resolve("file"), Path.of("/tmp/cloudg.log"));
        Path devnull = Files.createSymbolicLink(dir.resolve("null"), Path.of("/dev/null"));
        Path pipe = Files.createSymbolicLink(dir.resolve("pipe"), Path.of("pipe:[123456]"));
        assertThat(Terminals.stderrIsTerminal(Map.of("TERM", "xterm-256color"), pts)).isTrue();
        assertThat(Terminals.stderrIsTerminal(Map.of(), pts)).isTrue();
        assertThat(Terminals.stderrIsTerminal(Map.of("TERM", "dumb"), pts)).as("TERM=dumb draws no status line").isFalse();
        assertThat(Terminals.stderrIsTerminal(Map.of(), file)).isFalse();
        assertThat(Terminals.stderrIsTerminal(Map.of(), devnull)).isFalse();
        assertThat(Terminals.stderrIsTerminal(Map.of(), pipe)).isFalse();
        assertThat(Terminals.isTerminalDevice("/dev/tty1")).isTrue();
        assertThat(Terminals.isTerminalDevice("/dev/ttys002")).isTrue();
        assertThat(Terminals.isTerminalDevice("/dev/tty")).isTrue();
        assertThat(Terminals.isTerminalDevice("/dev/null")).isFalse();
    }

    @Test
    void columnsGivesTheWidthWhenItIsAPositiveNumber() {
        assertThat(Terminals.read("80")).isEqualTo(80);
        assertThat(Terminals.read(" 132 ")).isEqualTo(132);
        assertThat(Terminals.parse("0")).isNull();
        assertThat(Terminals.parse("wide")).isNull();
        assertThat(Terminals.parse(null)).isNull();
    }
}
