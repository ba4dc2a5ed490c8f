package io.cloudg.preload;

import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How {@link ClassPreload#global()} preloads, read once from system properties (the launcher sets them):
 * <ul>
 *   <li>{@value #LIST_PROPERTY}: the class list file (the build's, {@code cli/target/cloudg.classes}); without it,
 *   the class path resource {@value #LIST_RESOURCE} where one ships; without either, nothing is preloaded;</li>
 *   <li>{@value #ENABLED_PROPERTY}: {@code false} turns preloading off (to measure what it prevents).</li>
 * </ul>
 *
 * @param enabled      whether to preload at all
 * @param listFile     the list file, if one was named
 * @param threads      platform threads that load at once (at least 1)
 * @param initialised  the listed classes also initialised (binary names matching it whole): only those whose
 *                     static initialisers are pure data, so that no job waits for another's initialiser for them
 *                     either; every other class is loaded only
 */
public record PreloadConfig(boolean enabled, Optional<Path> listFile, int threads, Pattern initialised) {
    public static final String LIST_PROPERTY = "cloudg.preload.classes";
    public static final String ENABLED_PROPERTY = "cloudg.preload";
    public static final String LIST_RESOURCE = "META-INF/cloudg/preload-classes.txt";
    /**
     * Loading only, the default: initialising the AWS SDK's 16,600 listed model and marshaller classes as well (pure
     * static initialisers) cost 35 s more CPU without the class-data archive (they must be verified first), 4 times
     * the map's.
     */
    public static final Pattern NONE = Pattern.compile("(?!)");

    public PreloadConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
        if (listFile == null || initialised == null) {
            throw new IllegalArgumentException("listFile and initialised must not be null");
        }
    }

    /** From the system properties above; as many threads as cores, at most 2 (loading contends on the jars). */
    public static PreloadConfig fromSystemProperties() {
        String list = System.getProperty(LIST_PROPERTY);
        return new PreloadConfig(!"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY)),
                list == null || list.isBlank() ? Optional.empty() : Optional.of(Path.of(list)),
                Math.min(2, Runtime.getRuntime().availableProcessors()), NONE);
    }

    /** Whether {@code name} is initialised as well as loaded. */
    boolean initialises(String name) {
        return initialised.matcher(name).matches();
    }
}
