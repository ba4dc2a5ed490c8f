package io.cloudg.mcp.scan;

import io.cloudg.inventory.Asset;

/**
 * A security check over collected assets. Checks read only what collectors stored (an asset's
 * {@code attributes}); they never call a cloud, so they run the same over a fresh collection and over a
 * saved dataset. A check MUST answer {@link Verdict.Outcome#UNKNOWN} (never PASS) when the attributes it
 * needs are missing, so that "not public" and "not known" stay apart.
 */
public interface Check {
    /** Stable id, e.g. {@code s3_bucket_public}. */
    String id();

    String title();

    /** high, medium or low. */
    String severity();

    /** The asset type it applies to ({@code AWS::S3::Bucket}). */
    String assetType();

    /** The collector whose assets it reads ({@code s3_buckets}). */
    String collector();

    /** Evaluates one asset of {@link #assetType()}. */
    Verdict evaluate(Asset asset);
}
