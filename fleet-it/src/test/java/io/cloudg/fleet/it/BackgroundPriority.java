package io.cloudg.fleet.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The fleet's tests run at a lower CPU priority (nice {@value #NICE}) than the rest of the build.
 *
 * <p>Nothing waits for this module (it is tests only), while cli, beside it in a parallel build, is the build's
 * longest chain: its class-data archive, dumped on one thread, and the launcher tests after it. On a 2-core machine
 * the fleet's JVMs (a Kafka broker, worker JVMs, in-process fleets) took their share of the CPU from that chain;
 * niced, they take what it leaves, and the build ends when the CPU's work is done rather than when the chain,
 * slowed, is. A lower priority is not a pause: under load these tests get less CPU, and their waits are sized for
 * a loaded machine already.
 *
 * <p>Linux's nice value is per thread: every thread of this JVM is reniced (util-linux {@code renice}), and threads
 * and processes started later inherit it from the thread that starts them (the worker JVMs, the broker). Where
 * there is no {@code renice} or no {@code /proc}, nothing changes.
 */
final class BackgroundPriority {
    static final int NICE = 10;
    private static boolean lowered;

    private BackgroundPriority() {
    }

    /** Lowers this JVM's priority, once. */
    static synchronized void lower() {
        if (lowered) {
            return;
        }
        lowered = true;
        List<String> cmd = new ArrayList<>(List.of("renice", "-n", Integer.toString(NICE), "-p"));
        try (Stream<Path> threads = Files.list(Path.of("/proc/self/task"))) {
            threads.forEach(t -> cmd.add(t.getFileName().toString()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no renice or no /proc: the tests run at the build's priority
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
