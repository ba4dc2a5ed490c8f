package io.cloudg.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * cloudg's architecture rules on compiled classes, one rule set that {@link ArchitectureTest} applies to every
 * module and {@link ArchRulesFixtureTest} shows failing on a fixture with a deliberate violation:
 * <ul>
 *   <li>{@link #noPackageCycles}: no cycle among a module's packages (the root package included);</li>
 *   <li>{@link #clock}: no read of the system clock (wall or monotonic) outside the one place each module names,
 *       so that tests drive time and a fleet uses Redis TIME;</li>
 *   <li>{@link #moduleUses}: a module's classes use no class of a module it may not use (one above it) and no
 *       library it must not touch.</li>
 * </ul>
 * Every exception is listed with its reason in the rule's data ({@link #CLOCK_PLACES}, {@link #CYCLE_EXCEPTIONS}),
 * never as a silent filter.
 */
final class ArchRules {
    /** A place allowed to read the system clock ({@code class} or {@code class.method}), and why. */
    record ClockPlace(String origin, String reason) {
        boolean matches(JavaAccess<?> access) {
            String owner = access.getOriginOwner().getName();
            return origin.equals(owner) || origin.equals(owner + "." + access.getOrigin().getName());
        }
    }

    /**
     * Where each module may read the clock. A module not listed reads it nowhere; {@link #NOT_CLOCK_CHECKED} are
     * the modules the rule does not apply to. An entry that matches no read fails {@link ArchitectureTest}: an
     * exception outlives its reason only until the next build.
     */
    static final Map<String, List<ClockPlace>> CLOCK_PLACES = Map.of(
            "shared-limiter", List.of(
                    new ClockPlace("io.cloudg.resilience.time.SystemTimeSource",
                            "the process's one clock (TimeSource.system()): every other class is passed a TimeSource, "
                                    + "and a fleet's governor reads Redis TIME")),
            "cloud-sim", List.of(
                    new ClockPlace("io.cloudg.sim.core.SimClock$SystemClock",
                            "the simulator's one clock (SimClock.system()): quotas, windows, faults and churn read the "
                                    + "SimClock they are given, so tests run the sim on a ManualClock")));

    /** Modules the clock rule does not apply to, and why. */
    static final Map<String, String> NOT_CLOCK_CHECKED = Map.of(
            "bench", "a benchmark measures elapsed wall time and CPU: that is its job, and it never runs in a map");

    /** Classes a dependency on which the cycle rule does not follow, per module, and why (none: no module has a cycle). */
    static final Map<String, Map<String, String>> CYCLE_EXCEPTIONS = Map.of();

    /** A read of the clock: the owner's method (or constructor: {@code <init>}) with these parameter types. */
    private record ClockRead(String owner, String name, List<String> parameters) {
    }

    private static final List<ClockRead> CLOCK_READS = List.of(
            new ClockRead("java.lang.System", "nanoTime", List.of()),
            new ClockRead("java.lang.System", "currentTimeMillis", List.of()),
            new ClockRead("java.time.Instant", "now", List.of()),
            new ClockRead("java.time.InstantSource", "system", List.of()),
            new ClockRead("java.time.Clock", "systemUTC", List.of()),
            new ClockRead("java.time.Clock", "systemDefaultZone", List.of()),
            new ClockRead("java.time.Clock", "system", List.of("java.time.ZoneId")),
            new ClockRead("java.time.LocalDate", "now", List.of()),
            new ClockRead("java.time.LocalDate", "now", List.of("java.time.ZoneId")),
            new ClockRead("java.time.LocalTime", "now", List.of()),
            new ClockRead("java.time.LocalTime", "now", List.of("java.time.ZoneId")),
            new ClockRead("java.time.LocalDateTime", "now", List.of()),
            new ClockRead("java.time.LocalDateTime", "now", List.of("java.time.ZoneId")),
            new ClockRead("java.time.ZonedDateTime", "now", List.of()),
            new ClockRead("java.time.ZonedDateTime", "now", List.of("java.time.ZoneId")),
            new ClockRead("java.time.OffsetDateTime", "now", List.of()),
            new ClockRead("java.time.OffsetDateTime", "now", List.of("java.time.ZoneId")),
            new ClockRead("java.util.Date", "<init>", List.of()));

    private ArchRules() {
    }

    /**
     * No cycle among the packages under {@code root} ({@code root} itself is one of them), not following a
     * dependency on the classes {@code ignoredTargets} names (each with its reason).
     */
    static ArchRule noPackageCycles(String root, Map<String, String> ignoredTargets) {
        SliceRule rule = slices().assignedFrom(new PackagesUnder(root)).should().beFreeOfCycles();
        for (String target : ignoredTargets.keySet()) {
            rule = rule.ignoreDependency(DescribedPredicate.alwaysTrue(), HasName.Predicates.name(target));
        }
        return rule.allowEmptyShould(true).as("no cycle among the packages of " + root
                + (ignoredTargets.isEmpty() ? "" : " (not following a dependency on " + ignoredTargets.keySet() + ")"));
    }

    /** No read of the system clock outside {@code places}. */
    static ArchRule clock(List<ClockPlace> places) {
        return classes().should(new ArchCondition<JavaClass>("read the clock only through what they are given (a "
                + "TimeSource, a SimClock), outside " + places.stream().map(ClockPlace::origin).toList()) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (JavaAccess<?> a : clockReads(c)) {
                    if (places.stream().noneMatch(p -> p.matches(a))) {
                        events.add(SimpleConditionEvent.violated(a, a.getDescription()));
                    }
                }
            }
        }).allowEmptyShould(true);
    }

    /**
     * No work on the JVM's default async pool: every asynchronous step of {@code CompletableFuture} or
     * {@code CompletionStage} names its executor, and nothing asks for {@code ForkJoinPool.commonPool()}. On
     * JDK 25 with two processors or fewer (a small pod, this build machine) that pool has one worker; one
     * blocking step there stalls every other user of it in the process, libraries included.
     */
    static ArchRule noDefaultAsyncPool() {
        return classes().should(new ArchCondition<JavaClass>("name the executor of every asynchronous step (no "
                + "CompletableFuture/CompletionStage ...Async or delayedExecutor without an Executor, no "
                + "ForkJoinPool.commonPool())") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (JavaAccess<?> a : c.getAccessesFromSelf()) {
                    if (a.getTarget() instanceof CodeUnitAccessTarget t && onDefaultPool(t)) {
                        events.add(SimpleConditionEvent.violated(a, a.getDescription()));
                    }
                }
            }
        }).allowEmptyShould(true);
    }

    private static boolean onDefaultPool(CodeUnitAccessTarget t) {
        String owner = t.getOwner().getName();
        String name = t.getName();
        if (owner.equals("java.util.concurrent.ForkJoinPool")) {
            return name.equals("commonPool");
        }
        if (!owner.equals("java.util.concurrent.CompletableFuture") && !owner.equals("java.util.concurrent.CompletionStage")) {
            return false;
        }
        boolean async = name.endsWith("Async") || name.equals("delayedExecutor");
        return async && t.getRawParameterTypes().stream().noneMatch(p -> p.getName().equals("java.util.concurrent.Executor"));
    }

    /** The places of {@code places} that match no clock read of {@code classes}: exceptions whose reason is gone. */
    static List<ClockPlace> unusedClockPlaces(JavaClasses classes, List<ClockPlace> places) {
        List<ClockPlace> unused = new ArrayList<>(places);
        for (JavaClass c : classes) {
            for (JavaAccess<?> a : clockReads(c)) {
                unused.removeIf(p -> p.matches(a));
            }
        }
        return unused;
    }

    private static List<JavaAccess<?>> clockReads(JavaClass c) {
        List<JavaAccess<?>> out = new ArrayList<>();
        for (JavaAccess<?> a : c.getAccessesFromSelf()) {
            if (a.getTarget() instanceof CodeUnitAccessTarget t) {
                List<String> params = t.getRawParameterTypes().stream().map(JavaClass::getName).toList();
                String owner = t.getOwner().getName();
                if (CLOCK_READS.stream().anyMatch(r -> r.owner().equals(owner) && r.name().equals(t.getName())
                        && r.parameters().equals(params))) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    /**
     * The classes of module {@code module} use no class of the packages {@code forbiddenPackages} (those of the
     * modules it may not use) and no library whose package starts with a key of {@code forbiddenLibraries}
     * (the value says why).
     */
    static ArchRule moduleUses(String module, Set<String> forbiddenPackages, Map<String, String> forbiddenLibraries) {
        Set<String> forbidden = new TreeSet<>(forbiddenPackages);
        forbiddenLibraries.keySet().forEach(prefix -> forbidden.add(prefix.endsWith(".") ? prefix + "." : prefix + ".."));
        if (forbidden.isEmpty()) {
            throw new IllegalArgumentException(module + ": nothing is forbidden, so there is no rule to check");
        }
        return noClasses().should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(String[]::new))
                .allowEmptyShould(true)
                .as(module + " uses no class of a module it may not use, nor a library it must not touch")
                .because(forbiddenLibraries.isEmpty() ? "the module graph has no cycle and no module uses one above it"
                        : "the module graph has no cycle, no module uses one above it, and " + forbiddenLibraries);
    }

    /** Each package under the root is a slice; classes elsewhere are in none. */
    private record PackagesUnder(String root) implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String p = c.getPackageName();
            return p.equals(root) || p.startsWith(root + ".") ? SliceIdentifier.of(p) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of " + root;
        }
    }
}
