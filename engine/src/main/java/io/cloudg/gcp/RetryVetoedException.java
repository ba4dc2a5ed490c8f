package io.cloudg.gcp;

import io.cloudg.resilience.AttemptDecision;

/**
 * Ends a page whose retry the governor refused (an empty retry budget) although gax would have retried.
 * Its cause is the attempt's error, so the page is classified (throttled, transient) by what the service
 * said; the give-up is already in the task ledger with the governor's reason.
 */
public final class RetryVetoedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RetryVetoedException(AttemptDecision decision) {
        super(decision.reason(), decision.error());
    }
}
