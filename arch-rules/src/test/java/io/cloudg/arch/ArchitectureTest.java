package io.cloudg.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ArchRules} applied to every module's own classes: each module's classes are read from where its
 * artifact is on this module's test class path (a jar, or {@code target/classes}), found through one class of
 * the module, so nothing else (other modules, tests, libraries) is judged as the module's.
 */
class ArchitectureTest {
    /** One class of each module, in the modules' order ({@link ModuleRules#ALLOWED}). */
    static final Map<String, String> ANCHORS = anchors();

    private static final Map<String, JavaClasses> CLASSES = new ConcurrentHashMap<>();

    private static Map<String, String> anchors() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("shared-limiter", "io.cloudg.resilience.Governor");
        m.put("cloud-sim", "io.cloudg.sim.CloudSim");
        m.put("engine", "io.cloudg.CloudGConfig");
        m.put("fleet-protocol", "io.cloudg.fleet.protocol.MessageCodec");
        m.put("worker", "io.cloudg.fleet.worker.FleetWorker");
        m.put("devkit", "io.cloudg.fleet.local.DevServices");
        m.put("coordinator", "io.cloudg.fleet.coordinator.FleetCoordinator");
        m.put("mcp", "io.cloudg.mcp.CloudgMcp");
        m.put("cli", "io.cloudg.cli.Main");
        m.put("bench", "io.cloudg.bench.map.MapBenchmarks");
        return m;
    }

    /** The classes of {@code module}: those of the jar or directory its anchor class was loaded from. */
    static JavaClasses classesOf(String module) {
        return CLASSES.computeIfAbsent(module, m -> {
            try {
                Class<?> anchor = Class.forName(ANCHORS.get(m), false, ArchitectureTest.class.getClassLoader());
                Path where = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (!Files.exists(where)) {
                    throw new IllegalStateException(m + ": " + where + " does not exist; build the module first");
                }
                if (Files.isDirectory(where)) {
                    return new ClassFileImporter().importPath(where);
                }
                try (JarFile jar = new JarFile(where.toFile())) {
                    return new ClassFileImporter().importJar(jar);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ClassNotFoundException | URISyntaxException e) {
                throw new IllegalStateException(m + ": its classes are not on this module's test class path", e);
            }
        });
    }

    static Set<String> packagesOf(String module) {
        return classesOf(module).stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyModuleOfTheModuleRulesIsChecked() {
        assertThat(ANCHORS.keySet()).containsExactlyElementsOf(ModuleRules.ALLOWED.keySet());
        ANCHORS.keySet().forEach(m -> assertThat(classesOf(m)).as(m).isNotEmpty());
    }

    @TestFactory
    Stream<DynamicTest> noModuleHasAPackageCycle() {
        return ANCHORS.keySet().stream().map(m -> DynamicTest.dynamicTest(m, () ->
                ArchRules.noPackageCycles("io.cloudg", ArchRules.CYCLE_EXCEPTIONS.getOrDefault(m, Map.of()))
                        .check(classesOf(m))));
    }

    @TestFactory
    Stream<DynamicTest> noModuleReadsTheClockOutsideItsNamedPlace() {
        return ANCHORS.keySet().stream().filter(m -> !ArchRules.NOT_CLOCK_CHECKED.containsKey(m))
                .map(m -> DynamicTest.dynamicTest(m, () ->
                        ArchRules.clock(ArchRules.CLOCK_PLACES.getOrDefault(m, List.of())).check(classesOf(m))));
    }

    @TestFactory
    Stream<DynamicTest> noModuleRunsWorkOnTheDefaultAsyncPool() {
        return ANCHORS.keySet().stream().map(m -> DynamicTest.dynamicTest(m, () ->
                ArchRules.noDefaultAsyncPool().check(classesOf(m))));
    }

    @Test
    void everyClockExceptionStillHasAReadToExcuse() {
        ArchRules.CLOCK_PLACES.forEach((m, places) -> assertThat(ArchRules.unusedClockPlaces(classesOf(m), places))
                .as("clock exceptions of %s that excuse no read any more: remove them", m).isEmpty());
        assertThat(ANCHORS.keySet()).containsAll(ArchRules.CLOCK_PLACES.keySet()).containsAll(ArchRules.NOT_CLOCK_CHECKED.keySet());
    }

    @TestFactory
    Stream<DynamicTest> noModuleUsesAModuleAboveItNorALibraryItMustNotTouch() {
        return ANCHORS.keySet().stream().map(m -> DynamicTest.dynamicTest(m, () -> {
            Set<String> forbidden = new TreeSet<>();
            for (String other : ANCHORS.keySet()) {
                if (!other.equals(m) && !ModuleRules.ALLOWED.get(m).contains(other)) {
                    forbidden.addAll(packagesOf(other));
                }
            }
            forbidden.removeAll(packagesOf(m)); // a split package is ModuleRules' to report
            ArchRules.moduleUses(m, forbidden, ModuleRules.FORBIDDEN_LIBRARIES.getOrDefault(m, Map.of()))
                    .check(classesOf(m));
        }));
    }
}
