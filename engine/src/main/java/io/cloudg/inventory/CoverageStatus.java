package io.cloudg.inventory;

/** How completely one service of one account x region was seen. */
public enum CoverageStatus {
    /** Every call succeeded: the assets listed are all there are. */
    SUCCESS,
    /** The collector finished, but some calls gave up after retries or were skipped by an open circuit. */
    PARTIAL,
    /** The collector could not finish; its assets (if any) are a fragment. */
    FAILED
}
