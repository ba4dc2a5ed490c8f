package io.cloudg.cli;

/**
 * What {@code cloudg} exits with.
 * <ul>
 *   <li>0: done, every coverage entry SUCCESS;</li>
 *   <li>1: an unexpected internal error (a bug: please report it with the log);</li>
 *   <li>2: could not start: bad command line, bad configuration, no credentials, unreachable endpoint
 *       (one line on stderr says which);</li>
 *   <li>3: done, but coverage is PARTIAL or FAILED somewhere (inventory-map.json says where and why), or a
 *       destination failed (the map is complete; its run block says which destination and why);</li>
 *   <li>4: done, but the run's files could not all be written where asked (the output directory, its
 *       {@code runs/}): a line says what failed, the system's reason, and where the map is instead (or, when
 *       it could be written nowhere, where its assets are kept).</li>
 * </ul>
 * {@code cloudg diff} exits as {@code diff(1)} does: 0 no change, 1 something changed, 2 could not start.
 */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int INTERNAL_ERROR = 1;
    public static final int CANNOT_START = 2;
    public static final int INCOMPLETE = 3;
    public static final int NOT_WRITTEN = 4;

    private ExitCodes() {
    }
}
