package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

class SingleFlightCredentialsTest {
    private static final AwsCredentials CREDENTIALS = AwsBasicCredentials.create("AKID", "secret");
    private static final int CALLERS = 200;

    /**
     * A delegate whose first call (the refresh) blocks until released, as an AssumeRole waiting for its turn does;
     * later calls answer at once unless {@code answer} says otherwise, as the SDK's cache does.
     */
    static final class BlockingDelegate implements AwsCredentialsProvider {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();
        volatile Supplier<AwsCredentials> answer = () -> CREDENTIALS;

        @Override
        public AwsCredentials resolveCredentials() {
            if (calls.incrementAndGet() == 1) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return answer.get();
        }
    }

    /** Starts CALLERS virtual threads resolving once the first has entered the delegate; waits until all queue. */
    private static List<Future<AwsCredentials>> callersWaitingOnTheFirst(SingleFlightCredentials creds,
                                                                        BlockingDelegate delegate,
                                                                        ExecutorService pool) throws Exception {
        List<Future<AwsCredentials>> results = new ArrayList<>();
        results.add(pool.submit(creds::resolveCredentials));
        assertThat(delegate.entered.await(30, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i < CALLERS; i++) {
            results.add(pool.submit(creds::resolveCredentials));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // ends a hang; measures nothing
        while (creds.waiting() < CALLERS - 1 && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertThat(creds.waiting()).as("callers queued behind the first").isEqualTo(CALLERS - 1);
        return results;
    }

    @Test
    void callersThatArriveDuringARefreshWaitForItInsteadOfRefreshingThemselves() throws Exception {
        BlockingDelegate delegate = new BlockingDelegate();
        SingleFlightCredentials creds = new SingleFlightCredentials(delegate);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<AwsCredentials>> results = callersWaitingOnTheFirst(creds, delegate, pool);
            assertThat(delegate.calls.get()).as("only the first caller is in the delegate while it refreshes").isEqualTo(1);
            delegate.release.countDown();
            for (Future<AwsCredentials> f : results) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isSameAs(CREDENTIALS);
            }
        }
    }

    @Test
    void aFailedRefreshFailsTheCallersThatWaitedForItAndTheNextCallerTriesAgain() throws Exception {
        BlockingDelegate delegate = new BlockingDelegate();
        RuntimeException denied = new IllegalStateException("AssumeRole: access denied");
        delegate.answer = () -> {
            throw denied;
        };
        SingleFlightCredentials creds = new SingleFlightCredentials(delegate);
        int failedWaiting = 0;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<AwsCredentials>> results = callersWaitingOnTheFirst(creds, delegate, pool);
            delegate.release.countDown();
            for (Future<AwsCredentials> f : results) {
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isSameAs(denied);
                    failedWaiting++;
                }
            }
        }
        assertThat(failedWaiting).isEqualTo(CALLERS);
        assertThat(delegate.calls.get()).as("one AssumeRole for all who waited").isEqualTo(1);
        delegate.answer = () -> CREDENTIALS;
        assertThat(creds.resolveCredentials()).as("a caller after the failure tries again").isSameAs(CREDENTIALS);
        assertThat(delegate.calls.get()).isEqualTo(2);
    }
}
