package io.cloudg.resilience.testkit;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Running a blocking call of a test in the background: always on a thread of its own, never on the JVM's
 * default async pool. On JDK 25 with two processors or fewer, {@code CompletableFuture.supplyAsync(work)}
 * runs {@code work} on the common pool, whose parallelism is then 1 (JDK 17 started a thread per task). A
 * test that blocks there (a tool call waiting on a gated operation) holds the pool's only worker, and every
 * library continuation queued behind it (the JDK HTTP client's body demand through an MCP client, for one)
 * waits until the call gives up.
 */
public final class Threads {
    private Threads() {
    }

    /** {@code work} on a new daemon thread; its result (or failure) completes the future. */
    public static <T> CompletableFuture<T> async(Supplier<T> work) {
        return async("test-background", work);
    }

    /** {@code work} on a new daemon thread named {@code name} (as a thread dump shows it). */
    public static <T> CompletableFuture<T> async(String name, Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            t.start();
        });
    }
}
