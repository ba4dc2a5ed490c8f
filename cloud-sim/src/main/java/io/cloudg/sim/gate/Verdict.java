package io.cloudg.sim.gate;

import io.cloudg.sim.config.FaultKind;
import io.cloudg.sim.quota.Admission;
import io.cloudg.sim.quota.BucketRef;
import java.util.List;

/** What the {@link Gate} decided about one call; the front end renders it in the provider's wire shape. */
public sealed interface Verdict {

    /** Delay before the answer is sent (latency model plus any {@code slow} fault). */
    long delayNanos();

    /**
     * Answer normally.
     *
     * @param admissions what each of the call's buckets said, in the order they were charged (empty when the
     *                   call has no quota)
     */
    record Proceed(long delayNanos, List<Admission> admissions) implements Verdict {
        public Proceed {
            admissions = List.copyOf(admissions);
        }

        /** Whole calls left in the call's first bucket (-1 when the call has no bucket). */
        public long remaining() {
            return admissions.isEmpty() ? -1 : admissions.get(0).remaining();
        }

        /** Time until the first bucket is whole again (0 when the call has no bucket). */
        public long fullAfterNanos() {
            return admissions.isEmpty() ? 0 : admissions.get(0).fullAfterNanos();
        }
    }

    /**
     * Answer with the provider's throttling error.
     *
     * @param retryAfterNanos time until the refusing bucket has a call again (as far as it knows)
     * @param fullAfterNanos  time until the refusing bucket is whole again (a window: until it resets)
     * @param injected        true when a fault rule, not a bucket, throttled
     * @param refusedBy       the bucket that refused; null when injected
     */
    record Throttled(long delayNanos, long retryAfterNanos, long fullAfterNanos, boolean injected, BucketRef refusedBy)
        implements Verdict {
    }

    /** Answer with an injected fault (transient, reset or access_denied). */
    record Faulted(long delayNanos, FaultKind kind) implements Verdict {
    }
}
