package io.cloudg.run;

/**
 * How a collector's calls grow with what it finds: its listing's pages (at least one), one more call per
 * parent listing when it lists per parent, and {@code perItemCalls} per item (one DescribeImageAttribute per
 * AMI: {@code amis} has 1). Those per-item calls are what a quota bounds: they go to the bucket of
 * {@code service} / {@code itemOperation}.
 *
 * @param service the governor's service key ({@code ec2}, {@code iam}, an Azure resource provider...)
 * @param itemOperation the per-item call's operation, or the listing's when it has none
 * @param perItemCalls calls per item beyond the listing
 * @param perParent lists once per parent (a cluster's services)
 * @param listings the listings it makes, each at least a page (Cloud Control's sweep lists each of its types: one
 *        call per type even where none is found); 1 for a collector
 */
public record CallShape(String service, String itemOperation, int perItemCalls, boolean perParent, int listings) {
    /** The page size assumed for listings (most AWS listings return 100 to 1,000 items a page). */
    public static final int PAGE = 100;

    public CallShape {
        if (perItemCalls < 0) {
            throw new IllegalArgumentException("perItemCalls must be >= 0, but was " + perItemCalls);
        }
        if (listings < 1) {
            throw new IllegalArgumentException("listings must be >= 1, but was " + listings);
        }
    }

    /** A collector: one listing (per parent when {@code perParent}). */
    public CallShape(String service, String itemOperation, int perItemCalls, boolean perParent) {
        this(service, itemOperation, perItemCalls, perParent, 1);
    }

    /** A collector that only lists. */
    public static CallShape listing(String service, String operation) {
        return new CallShape(service, operation, 0, false);
    }

    /** The calls of one run that finds {@code items} items. */
    public long calls(long items) {
        long n = Math.max(0, items);
        long pages = Math.max(listings, (n + PAGE - 1) / PAGE);
        return pages + (perParent ? 1 : 0) + n * perItemCalls;
    }
}
