package io.cloudg.resilience;

import io.cloudg.resilience.spi.Scope;

/**
 * How one governed call is run.
 *
 * @param ledger the task ledger to record losses in; null means the thread's bound ledger, if any
 * @param slotMode who holds the bulkhead slot
 * @param hold the slot hold to use when {@code slotMode} is {@link SlotMode#HELD}, else null
 * @param charged a further quota the call is charged to besides its own leaf's, or null (see {@link #charging})
 * @param sdkLoop whether an SDK runs the call's retry loop (AWS): then the SDK's own limits end it, and the
 *        governor's {@code max_retries}, {@code max_backoff_seconds} and {@code deadline_seconds}, which bound
 *        only cloudg's own loop, are never applied, {@link GovernedCall#admit()}'s deadline check included
 */
public record CallOptions(TaskLedger ledger, SlotMode slotMode, SlotHold hold, ChargedQuota charged, boolean sdkLoop) {

    /**
     * A further quota one call is charged to, besides its own leaf's: GCP charges a Cloud Asset call to the
     * consumer project (the call's leaf) and to the organization. Its leaf is {@code scope}'s (rate from the
     * configuration as for any scope); admissions take a token from both leaves and wait for the slower,
     * successes feed both, and a throttle whose {@link io.cloudg.resilience.core.QuotaWindow#per()} is
     * {@code per} is this quota's (AIMD, window) rather than the call's leaf's. No breaker, bulkhead or
     * account bucket of its own.
     *
     * @param scope a scope of the same provider, with a service
     * @param per what the provider says this quota is counted per ({@code organization})
     */
    public record ChargedQuota(Scope scope, String per) {
        public ChargedQuota {
            if (scope == null || scope.service() == null || per == null || per.isEmpty()) {
                throw new IllegalArgumentException("a charged quota needs a scope with a service and a name, but was "
                        + scope + " per " + per);
            }
        }
    }

    /** Where the bulkhead slot of a call comes from. */
    public enum SlotMode {
        /** One slot per call, kept across its retries (AWS: botocore's retries reuse the slot). */
        PER_CALL,
        /** One slot per attempt, released between retries (Azure: one per HTTP attempt). */
        PER_ATTEMPT,
        /** The caller holds a slot for a larger unit of work (GCP: one per whole listing). */
        HELD
    }

    public static final CallOptions DEFAULT = new CallOptions(null, SlotMode.PER_CALL, null);

    public CallOptions(TaskLedger ledger, SlotMode slotMode, SlotHold hold) {
        this(ledger, slotMode, hold, null, false);
    }

    public CallOptions(TaskLedger ledger, SlotMode slotMode, SlotHold hold, ChargedQuota charged) {
        this(ledger, slotMode, hold, charged, false);
    }

    public CallOptions {
        if (slotMode == null) {
            throw new IllegalArgumentException("slotMode must not be null");
        }
        if ((slotMode == SlotMode.HELD) != (hold != null)) {
            throw new IllegalArgumentException("a SlotHold must be given exactly when slotMode is HELD, but slotMode was "
                    + slotMode + " and hold was " + hold);
        }
    }

    public static CallOptions perAttempt() {
        return new CallOptions(null, SlotMode.PER_ATTEMPT, null);
    }

    public static CallOptions held(SlotHold hold) {
        return new CallOptions(null, SlotMode.HELD, hold);
    }

    /** One slot per call, and the retry loop is an SDK's (see {@link #sdkLoop()}). */
    public static CallOptions forSdkLoop() {
        return new CallOptions(null, SlotMode.PER_CALL, null, null, true);
    }

    public CallOptions withLedger(TaskLedger l) {
        return new CallOptions(l, slotMode, hold, charged, sdkLoop);
    }

    /** These options with the call also charged to {@code quota} (null: to none). */
    public CallOptions charging(ChargedQuota quota) {
        return new CallOptions(ledger, slotMode, hold, quota, sdkLoop);
    }
}
