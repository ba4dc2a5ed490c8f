package io.cloudg.preload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassPreloadTest {
    /** Counts its initialisations; loaded by a fresh loader in each test, so each starts uninitialised. */
    public static final class Probe {
        static {
            InitCounter.PROBES.incrementAndGet();
        }
    }

    public static final class Pure {
        static {
            InitCounter.PURES.incrementAndGet();
        }
    }

    @Test
    void loadsEveryListedClassInitialisingOnlyThoseTheConfigurationSaysAndSkipsWhatIsMissing() throws Exception {
        GatedLoader loader = freshLoader();
        int probes = InitCounter.PROBES.get();
        int pures = InitCounter.PURES.get();
        PreloadReport r = ClassPreload.load(new ClassList(List.of(Probe.class.getName(), Pure.class.getName(),
                "io.cloudg.NoSuchClass")), loader, config(Optional.empty(), Pattern.compile(".*\\$Pure")), "test");

        assertThat(r).isEqualTo(new PreloadReport("test", 3, 2, 1, 1));
        assertThat(InitCounter.PROBES.get()).isEqualTo(probes);
        assertThat(InitCounter.PURES.get()).isEqualTo(pures + 1);
    }

    @Test
    void aMissingOrUnreadableListLoadsNothingAndNeverStopsTheCaller(@TempDir Path dir) throws Exception {
        ClassPreload preload = new ClassPreload(config(Optional.of(dir.resolve("absent.txt")), PreloadConfig.NONE),
                getClass().getClassLoader());
        assertThat(preload.awaitLoaded().loaded()).isZero();
        assertThat(preload.awaitLoaded().source()).isEqualTo("unreadable"); // once: the second call returns the first's
    }

    @Test
    void theListFileIsLoadedOnceThroughTheGivenLoader(@TempDir Path dir) throws Exception {
        Path list = Files.writeString(dir.resolve("classes.txt"), "java/lang/Object id: 0\n"
                + Probe.class.getName().replace('.', '/') + " id: 7\n");
        ClassPreload preload = new ClassPreload(config(Optional.of(list), PreloadConfig.NONE), freshLoader());
        preload.start();
        PreloadReport r = preload.awaitLoaded();
        assertThat(r.loaded()).isEqualTo(2);
        assertThat(r.source()).isEqualTo(list.toString());
    }

    @Test
    void turnedOffItLoadsNothing() throws Exception {
        ClassPreload preload = new ClassPreload(new PreloadConfig(false, Optional.empty(), 1, PreloadConfig.NONE),
                freshLoader());
        assertThat(preload.awaitLoaded().loaded()).isZero();
    }

    private static PreloadConfig config(Optional<Path> list, Pattern initialised) {
        return new PreloadConfig(true, list, 2, initialised);
    }

    private static GatedLoader freshLoader() {
        return new GatedLoader(ClassPreloadTest.class.getClassLoader(), java.util.Set.of(Probe.class.getName(),
                Pure.class.getName()), "none", new Object());
    }
}
