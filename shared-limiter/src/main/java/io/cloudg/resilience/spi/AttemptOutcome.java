package io.cloudg.resilience.spi;


/**
 * What one attempt (one request on the wire) came back with. Only SUCCESS and THROTTLED move a leaf's
 * rate; NONE means no answer at all (the call was cancelled or abandoned).
 */
public enum AttemptOutcome {
    SUCCESS, THROTTLED, TRANSIENT, FATAL, NONE;

    public static AttemptOutcome of(ErrorClass c) {
        switch (c) {
            case THROTTLED: return THROTTLED;
            case TRANSIENT: return TRANSIENT;
            default: return FATAL;
        }
    }
}
