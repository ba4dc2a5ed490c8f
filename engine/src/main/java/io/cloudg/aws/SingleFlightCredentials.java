package io.cloudg.aws;

import java.util.concurrent.locks.ReentrantLock;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * An assumed role's credentials, fetched by one caller at a time for all the calls that need them at that moment.
 * The SDK's own cache (behind {@code StsAssumeRoleCredentialsProvider}) lets a caller that waited 5 seconds for
 * another's refresh fetch for itself; with thousands of calls in flight, hundreds of an account's jobs start at once,
 * the first AssumeRole waits longer than that for the management account's bulkhead and tokens, and every waiter
 * then calls AssumeRole itself: a stampede that the STS quota throttles, which slows the next refreshes further.
 *
 * <p>Here callers queue on a lock (a virtual thread parks on it) and the delegate's cached answer is read by one
 * at a time. When an attempt fails, the callers that were waiting for it get its failure instead of each trying
 * again in turn; a caller that arrives after it tries again.
 */
final class SingleFlightCredentials implements AwsCredentialsProvider {
    private final AwsCredentialsProvider delegate;
    private final ReentrantLock lock = new ReentrantLock();
    /** Attempts that ended (in answer or failure); written under the lock. */
    private volatile long ended;
    /** The last failure and the attempt it ended; guarded by the lock. */
    private RuntimeException failure;
    private long failedAttempt;

    SingleFlightCredentials(AwsCredentialsProvider delegate) {
        this.delegate = delegate;
    }

    @Override
    public AwsCredentials resolveCredentials() {
        long seen = ended;
        lock.lock();
        try {
            if (failure != null && failedAttempt > seen) {
                throw failure; // the attempt this caller waited for failed
            }
            try {
                AwsCredentials c = delegate.resolveCredentials();
                failure = null;
                ended++;
                return c;
            } catch (RuntimeException e) {
                failure = e;
                failedAttempt = ++ended;
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Callers waiting for the one in the delegate (an estimate, for tests). */
    int waiting() {
        return lock.getQueueLength();
    }

    @Override
    public String toString() {
        return "SingleFlightCredentials(" + delegate + ")";
    }
}
