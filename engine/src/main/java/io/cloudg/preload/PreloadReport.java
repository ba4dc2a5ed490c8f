package io.cloudg.preload;

/**
 * What a preload did.
 *
 * @param source      where the list came from ({@code none} when there was none)
 * @param listed      classes the list named
 * @param loaded      classes loaded (or found loaded)
 * @param initialised of those, classes initialised too
 * @param missing     classes that could not be loaded (not on this class path, or failing to link): the jobs meet
 *                    them as they would have without a preload
 */
public record PreloadReport(String source, int listed, int loaded, int initialised, int missing) {
    public static PreloadReport none(String why) {
        return new PreloadReport(why, 0, 0, 0, 0);
    }

    PreloadReport plus(PreloadReport o) {
        return new PreloadReport(source, listed + o.listed, loaded + o.loaded, initialised + o.initialised,
                missing + o.missing);
    }
}
