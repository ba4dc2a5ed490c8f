package io.cloudg.resilience;

/**
 * How one governed call is run.
 *
 * @param ledger the task ledger to record losses in; null means the thread's bound ledger, if any
 * @param slotMode who holds the bulkhead slot
 * @param hold the slot hold to use when {@code slotMode} is {@link SlotMode#HELD}, else null
 */
public record CallOptions(TaskLedger ledger, SlotMode slotMode, SlotHold hold) {

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

    public CallOptions withLedger(TaskLedger l) {
        return new CallOptions(l, slotMode, hold);
    }
}
