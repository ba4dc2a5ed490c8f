package io.cloudg.sim.aws;

/**
 * How one listing pages, in the operation's own member names.
 *
 * @param inToken       request member carrying the token ({@code NextToken}, {@code Marker}, ...)
 * @param outToken      response member carrying the next token
 * @param limitMember   request member with the page size, or null when the page size is fixed
 * @param defaultSize   page size when the caller gives none ({@link Integer#MAX_VALUE}: everything)
 * @param minSize       smallest page size accepted
 * @param maxSize       largest page size accepted
 * @param truncatedFlag response boolean saying more pages follow ({@code IsTruncated}), or null
 * @param lastKey       the token is the last returned item's id (DynamoDB's
 *                      {@code LastEvaluatedTableName}), not an opaque cursor
 */
public record Paging(String inToken, String outToken, String limitMember, int defaultSize, int minSize, int maxSize,
                     String truncatedFlag, boolean lastKey) {

    /** Everything in one answer. */
    public static final Paging NONE = new Paging(null, null, null, Integer.MAX_VALUE, 1, Integer.MAX_VALUE, null, false);

    /** {@code NextToken} in and out. */
    public static Paging token(String limitMember, int dflt, int min, int max) {
        return new Paging("NextToken", "NextToken", limitMember, dflt, min, max, null, false);
    }

    public static Paging tokens(String in, String out, String limitMember, int dflt, int min, int max) {
        return new Paging(in, out, limitMember, dflt, min, max, null, false);
    }

    /** {@code Marker} in, {@code outToken} out, with a truncation flag. */
    public static Paging marker(String in, String out, String limitMember, int dflt, int min, int max, String flag) {
        return new Paging(in, out, limitMember, dflt, min, max, flag, false);
    }

    public static Paging fixed(String in, String out, int size) {
        return new Paging(in, out, null, size, size, size, null, false);
    }

    public Paging withLastKey() {
        return new Paging(inToken, outToken, limitMember, defaultSize, minSize, maxSize, truncatedFlag, true);
    }
}
