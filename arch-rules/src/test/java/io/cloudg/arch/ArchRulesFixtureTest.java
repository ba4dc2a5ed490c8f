package io.cloudg.arch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each rule of {@link ArchRules} fails on a fixture with a deliberate violation ({@code io.cloudg.arch.fixture}). */
class ArchRulesFixtureTest {
    static final String FIXTURE = "io.cloudg.arch.fixture";

    static JavaClasses fixture(String pkg) {
        return new ClassFileImporter().importPackages(FIXTURE + "." + pkg);
    }

    @Test
    void theCycleRuleFailsOnACycleAndPassesOnLayers() {
        EvaluationResult cycle = ArchRules.noPackageCycles(FIXTURE + ".cycle", Map.of()).evaluate(fixture("cycle"));
        assertThat(cycle.hasViolation()).isTrue();
        assertThat(String.join("\n", cycle.getFailureReport().getDetails()))
                .contains(FIXTURE + ".cycle.a", FIXTURE + ".cycle.b");
        assertThatThrownBy(() -> ArchRules.noPackageCycles(FIXTURE + ".cycle", Map.of()).check(fixture("cycle")))
                .isInstanceOf(AssertionError.class);
        assertThat(ArchRules.noPackageCycles(FIXTURE + ".layered", Map.of()).evaluate(fixture("layered")).hasViolation())
                .isFalse();
        assertThat(ArchRules.noPackageCycles(FIXTURE + ".cycle", Map.of(FIXTURE + ".cycle.a.A", "the fixture's exception"))
                .evaluate(fixture("cycle")).hasViolation()).as("a listed exception is not followed").isFalse();
    }

    @Test
    void theClockRuleFailsOnEveryReadOutsideTheNamedPlace() {
        JavaClasses clock = fixture("clock");
        ArchRules.ClockPlace one = new ArchRules.ClockPlace(FIXTURE + ".clock.TheOneClock", "the fixture's one clock");
        EvaluationResult r = ArchRules.clock(List.of(one)).evaluate(clock);
        List<String> details = r.getFailureReport().getDetails();
        assertThat(details).hasSize(5).allSatisfy(d -> assertThat(d).contains("ReadsTheClock"));
        assertThat(String.join("\n", details)).contains("currentTimeMillis", "Instant.now()", "Date.<init>()",
                "LocalDateTime.now()", "nanoTime");
        assertThat(ArchRules.clock(List.of()).evaluate(clock).getFailureReport().getDetails())
                .as("without the exception, the named place is a read like any other").hasSize(6);
        assertThat(ArchRules.unusedClockPlaces(clock, List.of(one))).isEmpty();
        ArchRules.ClockPlace stale = new ArchRules.ClockPlace(FIXTURE + ".clock.GivenAClock", "reads nothing");
        assertThat(ArchRules.unusedClockPlaces(clock, List.of(one, stale))).containsExactly(stale);
    }

    @Test
    void theAsyncPoolRuleFailsOnEveryStepWithoutAnExecutor() {
        EvaluationResult r = ArchRules.noDefaultAsyncPool().evaluate(fixture("pool"));
        List<String> details = r.getFailureReport().getDetails();
        assertThat(details).hasSize(4).allSatisfy(d -> assertThat(d).contains("UsesTheCommonPool"));
        assertThat(String.join("\n", details)).contains("supplyAsync", "thenAcceptAsync", "delayedExecutor", "commonPool");
    }

    @Test
    void theModuleRuleFailsOnAModuleUsingTheOneAboveItOrAForbiddenLibrary() {
        JavaClasses lower = fixture("modules.lower");
        EvaluationResult r = ArchRules.moduleUses("lower", Set.of(FIXTURE + ".modules.upper"),
                Map.of("java.net.http.", "the fixture's lower module speaks no HTTP")).evaluate(lower);
        assertThat(String.join("\n", r.getFailureReport().getDetails()))
                .contains("Lower", "Upper", "UsesHttp", "java.net.http.HttpClient");
        assertThat(ArchRules.moduleUses("upper", Set.of(FIXTURE + ".modules.lower"), Map.of())
                .evaluate(fixture("modules.upper")).hasViolation()).as("the module above may use the one below").isFalse();
    }
}
