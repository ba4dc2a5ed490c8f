package io.cloudg.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The module layout of README's architecture section holds in the sources, and the check does catch a break. */
class ModuleRulesTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theRepositoryKeepsEveryDependencyRule() {
        assertThat(ROOT.resolve("shared-limiter/src/main/java")).as("run from a module of the repository").isDirectory();
        assertThat(ModuleRules.violations(ROOT)).isEmpty();
    }

    @Test
    void theCheckCatchesAForbiddenImportASplitPackageAndAPomDependency(@TempDir Path root) throws IOException {
        write(root, "shared-limiter/src/main/java/io/cloudg/resilience/Governor.java", """
                package io.cloudg.resilience;
                import io.cloudg.aws.AwsClients;
                import software.amazon.awssdk.core.exception.SdkException;
                public class Governor { }
                """);
        write(root, "engine/src/main/java/io/cloudg/aws/AwsClients.java", """
                package io.cloudg.aws;
                public class AwsClients { Object c = new io.cloudg.fleet.coordinator.FleetCoordinator(); }
                """);
        write(root, "coordinator/src/main/java/io/cloudg/fleet/coordinator/FleetCoordinator.java", """
                package io.cloudg.fleet.coordinator;
                import io.cloudg.fleet.local.FreePorts;
                /* io.cloudg.mcp.CloudgMcp in a comment is not a use */
                public class FleetCoordinator { }
                """);
        write(root, "devkit/src/main/java/io/cloudg/fleet/local/FreePorts.java", "package io.cloudg.fleet.local;\npublic class FreePorts { }\n");
        write(root, "engine/src/main/java/io/cloudg/run/Sends.java",
                "package io.cloudg.run;\nimport org.apache.kafka.clients.producer.Producer;\npublic class Sends { }\n");
        write(root, "cli/pom.xml", """
                <project><dependencies>
                  <dependency><groupId>io.cloudg</groupId><artifactId>cloudg-devkit</artifactId></dependency>
                  <dependency><groupId>io.cloudg</groupId><artifactId>cloudg-worker</artifactId></dependency>
                </dependencies></project>
                """);
        write(root, "mcp/src/main/java/io/cloudg/aws/Split.java", "package io.cloudg.aws;\npublic class Split { }\n");
        write(root, "cloud-sim/src/main/java/io/cloudg/sim/Sim.java",
                "package io.cloudg.sim;\nimport io.cloudg.resilience.Governor;\npublic class Sim { }\n");
        write(root, "engine/pom.xml", """
                <project><dependencies>
                  <dependency><groupId>io.cloudg</groupId><artifactId>cloudg-coordinator</artifactId></dependency>
                  <dependency><groupId>io.cloudg</groupId><artifactId>cloudg-cloud-sim</artifactId><scope>test</scope></dependency>
                </dependencies></project>
                """);
        List<String> found = ModuleRules.violations(root);
        assertThat(found).containsExactlyInAnyOrder(
                "package io.cloudg.aws is split between engine and mcp",
                "shared-limiter/src/main/java/io/cloudg/resilience/Governor.java: shared-limiter must not use io.cloudg.aws (module engine)",
                "shared-limiter/src/main/java/io/cloudg/resilience/Governor.java: shared-limiter must not import "
                        + "software.amazon.awssdk.core.exception.SdkException (the governor knows no cloud SDK (ErrorInspectors live in engine))",
                "engine/src/main/java/io/cloudg/aws/AwsClients.java: engine must not use io.cloudg.fleet.coordinator (module coordinator)",
                "cloud-sim/src/main/java/io/cloudg/sim/Sim.java: cloud-sim must not use io.cloudg.resilience (module shared-limiter)",
                "cloud-sim/src/main/java/io/cloudg/sim/Sim.java: cloud-sim stands apart but imports io.cloudg.resilience.Governor",
                "engine/pom.xml: engine must not depend on coordinator",
                "coordinator/src/main/java/io/cloudg/fleet/coordinator/FleetCoordinator.java: coordinator must not use "
                        + "io.cloudg.fleet.local (module devkit)",
                "engine/src/main/java/io/cloudg/run/Sends.java: engine must not import org.apache.kafka.clients.producer.Producer "
                        + "(the engine maps in one process; Kafka is the fleet's (fleet-protocol))",
                "cli/pom.xml: cli must not depend on devkit");
    }

    @Test
    void theAllowedGraphHasNoCycle() {
        List<String> order = List.copyOf(ModuleRules.ALLOWED.keySet());
        ModuleRules.ALLOWED.forEach((module, uses) -> uses.forEach(used ->
                assertThat(order.indexOf(used)).as("%s uses %s, which must come earlier", module, used)
                        .isBetween(0, order.indexOf(module) - 1)));
    }

    private static void write(Path root, String file, String text) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }
}
