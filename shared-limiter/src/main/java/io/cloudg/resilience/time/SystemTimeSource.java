package io.cloudg.resilience.time;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** The production time source. The only place in the governor that reads the system clock. */
final class SystemTimeSource implements TimeSource {
    static final SystemTimeSource INSTANCE = new SystemTimeSource();

    private SystemTimeSource() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long epochMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public void sleep(long nanos) throws InterruptedException {
        if (nanos <= 0) {
            return;
        }
        long deadline = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for a rate limit");
            }
            left = deadline - System.nanoTime();
        }
    }

    @Override
    public CompletableFuture<Void> delay(long nanos) {
        if (nanos <= 0) {
            return CompletableFuture.completedFuture(null);
        }
        Executor after = CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, Runnable::run);
        return CompletableFuture.runAsync(() -> { }, after);
    }

    @Override
    public String toString() {
        return "TimeSource.system()";
    }
}
