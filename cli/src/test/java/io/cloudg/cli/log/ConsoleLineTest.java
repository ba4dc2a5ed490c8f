package io.cloudg.cli.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live status line and log lines on one terminal: whatever the interleaving, every log line shows whole
 * on a line of its own and the status line stays the last line (never a log line glued to the status line, as in
 * {@code ETA --:--INFO cloudg.aws: ...}).
 * The bytes written are replayed on a minimal terminal ({@link Terminal}) and the screen is checked.
 */
class ConsoleLineTest {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    final ConsoleLine console = new ConsoleLine(() -> out);

    @AfterEach
    void restoreLogging() {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, ConsoleLine.stderr());
        LogSetup.started();
    }

    List<String> screen() {
        return Terminal.screen(bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLogLineClearsTheStatusLineAndTheStatusComesBackBelowIt() {
        console.status("[1/4 tasks] 2.0 calls/s, ETA --:--");
        byte[] line = ConsoleLine.bytes("INFO cloudg.aws: hello\n");
        console.write(line, 0, line.length);
        console.status("[2/4 tasks] 3.0 calls/s, ETA 0:05");
        assertThat(screen()).containsExactly("INFO cloudg.aws: hello", "[2/4 tasks] 3.0 calls/s, ETA 0:05");
        console.clear();
        assertThat(screen()).containsExactly("INFO cloudg.aws: hello", "");
    }

    @Test
    void withoutAStatusLineLogOutputPassesThroughUnchanged() {
        console.write(ConsoleLine.bytes("a\n"), 0, 2);
        console.write(ConsoleLine.bytes("b\n"), 0, 2);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("a\nb\n");
    }

    @Test
    void interleavedLogLinesAndRedrawsFromManyThreadsNeverGarbleALine() throws Exception {
        LogSetup.apply(LogSetup.Format.text, LogSetup.LogLevel.info, console);
        LogSetup.started();
        Logger log = LoggerFactory.getLogger("cloudg.aws");
        int threads = 4;
        int perThread = 200;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            all.add(new Thread(() -> {
                await(start);
                for (int i = 0; i < perThread; i++) {
                    log.info("thread {} line {}", id, i);
                }
            }));
        }
        Thread progress = new Thread(() -> {
            await(start);
            for (int i = 0; i < 500; i++) {
                console.status("[" + i + "/500 tasks] 12.5 calls/s, 3 throttled, ETA --:--");
            }
        });
        all.add(progress);
        all.forEach(Thread::start);
        start.countDown();
        for (Thread t : all) {
            t.join();
        }
        List<String> screen = screen();
        assertThat(screen.get(screen.size() - 1)).as("the status line is last").isEqualTo("[499/500 tasks] 12.5 calls/s, 3 throttled, ETA --:--");
        List<String> logLines = screen.subList(0, screen.size() - 1);
        assertThat(logLines).hasSize(threads * perThread);
        assertThat(logLines).allSatisfy(l -> assertThat(l)
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z INFO cloudg\\.aws: thread \\d line \\d+"));
        for (int t = 0; t < threads; t++) {
            String prefix = "thread " + t + " line ";
            List<Integer> seen = logLines.stream().filter(l -> l.contains(prefix))
                    .map(l -> Integer.parseInt(l.substring(l.indexOf(prefix) + prefix.length()))).toList();
            assertThat(seen).as("thread %d's lines, each once, in order", t).hasSize(perThread).isSorted();
        }
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void onAnEightyColumnTerminalALongStatusLineRedrawnManyTimesLeavesNoStaleRow() {
        ConsoleLine narrow = new ConsoleLine(() -> out, () -> 80);
        for (int i = 0; i < 5; i++) {
            narrow.status("[" + (652 + i) + "/17837 jobs (3%)] 212.4 calls/s, 0 throttled, 0 retries, 41023 calls, ETA 3:1" + i);
        }
        List<String> screen = Terminal.screen(bytes.toString(StandardCharsets.UTF_8), 80);
        assertThat(screen).as("one row: the last redraw, fitted").containsExactly(
                "[656/17837 jobs (3%)] 212.4 calls/s, 0 throttled, 0 retries, ETA 3:14");
        byte[] line = ConsoleLine.bytes("INFO cloudg.aws: hello\n");
        narrow.write(line, 0, line.length);
        assertThat(Terminal.screen(bytes.toString(StandardCharsets.UTF_8), 80)).containsExactly("INFO cloudg.aws: hello",
                "[656/17837 jobs (3%)] 212.4 calls/s, 0 throttled, 0 retries, ETA 3:14");

        bytes.reset();
        ConsoleLine unfitted = new ConsoleLine(() -> out, () -> Integer.MAX_VALUE);
        for (int i = 0; i < 3; i++) {
            unfitted.status("[" + (652 + i) + "/17837 jobs (3%)] 212.4 calls/s, 0 throttled, 0 retries, 41023 calls, ETA 3:1" + i);
        }
        assertThat(Terminal.screen(bytes.toString(StandardCharsets.UTF_8), 80)).as("what the terminal would show unfitted")
                .hasSize(4);
    }

    @Test
    void theWidthIsAskedAtEveryRedrawSoAResizeTakesEffect() {
        int[] width = {120};
        ConsoleLine console = new ConsoleLine(() -> out, () -> width[0]);
        String line = "[1/2 jobs (50%)] 212.4 calls/s, 0 throttled, 0 retries, 41023 calls, ETA 3:10";
        console.status(line);
        assertThat(Terminal.screen(bytes.toString(StandardCharsets.UTF_8), 120)).containsExactly(line);
        width[0] = 41;
        console.status(line);
        assertThat(Terminal.screen(bytes.toString(StandardCharsets.UTF_8), 41)).last().isEqualTo(
                "[1/2 jobs (50%)] 212.4 calls/s, ETA 3:10");
    }

    @Test
    void theLoggingSetupIsLogbacks() {
        assertThat(LoggerFactory.getILoggerFactory()).isInstanceOf(LoggerContext.class);
    }
}
