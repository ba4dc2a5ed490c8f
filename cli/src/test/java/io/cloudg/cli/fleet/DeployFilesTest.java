package io.cloudg.cli.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.cloudg.cli.Main;
import io.cloudg.CloudGConfig;
import io.cloudg.config.ConfigFile;
import io.cloudg.fleet.FleetSettings;
import io.cloudg.mcp.config.McpSettings;
import io.cloudg.sim.SimMain;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The Kubernetes manifests ({@code deploy/}), {@code compose.yaml} and the Jib profile, checked as far as a
 * machine without Kubernetes or Docker can: every file parses; every file a kustomization names exists;
 * each {@code cloudg.yaml} they mount loads without an unknown key; every container command is a cloudg
 * command line that parses; ports, probes, secrets, volumes, images and environment variables referenced
 * in one place exist in the other.
 */
class DeployFilesTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static List<JsonNode> docs(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && !n.isNull() && !n.isMissingNode()) {
                    out.add(n);
                }
            }
        }
        return out;
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    /** A cloudg command line as a container would run it: it must parse, options and subcommand included. */
    static void assertCommandParses(List<String> args) {
        assertThat(args).as("a container command").isNotEmpty();
        new CommandLine(new Main()).parseArgs(args.toArray(String[]::new));
        if (args.get(0).equals("sim")) {
            SimMain.parse(args.subList(1, args.size()).toArray(String[]::new));
        }
    }

    /** A cloudg.yaml read by every module, as the processes of a fleet read it. */
    record Loaded(CloudGConfig config, FleetSettings fleet, McpSettings mcp) {
    }

    /** The cloudg.yaml loads with every key known to the module that reads it; returns it. */
    static Loaded assertConfigLoads(Path file) throws IOException {
        ConfigFile f = ConfigFile.fromYaml(Files.readString(file));
        Loaded loaded = new Loaded(CloudGConfig.from(f), FleetSettings.from(f), McpSettings.from(f));
        assertThat(f.warnings()).as("unknown keys in %s", file).isEmpty();
        return loaded;
    }

    /** Every manifest a kustomization names, recursively; every named file exists. */
    static List<Path> kustomize(Path dir) throws IOException {
        JsonNode k = docs(dir.resolve("kustomization.yaml")).get(0);
        assertThat(k.get("kind").asText()).isEqualTo("Kustomization");
        List<Path> manifests = new ArrayList<>();
        for (String r : strings(k.get("resources"))) {
            Path p = dir.resolve(r).normalize();
            assertThat(p).as("resource %s of %s", r, dir).exists();
            if (Files.isDirectory(p)) {
                manifests.addAll(kustomize(p));
            } else {
                manifests.add(p);
            }
        }
        if (k.has("patches")) {
            for (JsonNode patch : k.get("patches")) {
                Path p = dir.resolve(patch.get("path").asText());
                assertThat(p).as("patch of %s", dir).exists();
                assertThat(docs(p)).isNotEmpty();
            }
        }
        if (k.has("configMapGenerator")) {
            for (JsonNode g : k.get("configMapGenerator")) {
                for (String f : strings(g.get("files"))) {
                    assertThat(dir.resolve(f)).as("configMap file of %s", dir).exists();
                    assertConfigLoads(dir.resolve(f));
                }
            }
        }
        return manifests;
    }

    static JsonNode byKind(List<JsonNode> all, String kind, String name) {
        return all.stream().filter(d -> d.get("kind").asText().equals(kind) && d.at("/metadata/name").asText().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    /** The *_env variables a cloudg.yaml names (passwords): each container must define them. */
    static Set<String> secretVariables(Path cloudgYaml) throws IOException {
        Set<String> out = new HashSet<>();
        collectEnvKeys(docs(cloudgYaml).get(0), out);
        return out;
    }

    private static void collectEnvKeys(JsonNode n, Set<String> out) {
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (e.getKey().endsWith("_env") && e.getValue().isTextual()) {
                out.add(e.getValue().asText());
            } else if (e.getValue().isObject()) {
                collectEnvKeys(e.getValue(), out);
            }
        }
    }

    static void assertPodSpec(JsonNode podSpec, Set<String> variables, int healthPort, boolean probes, String configMap) {
        JsonNode c = podSpec.get("containers").get(0);
        assertThat(c.get("image").asText()).isEqualTo("cloudg");
        assertCommandParses(strings(c.get("args")));
        Set<String> env = new HashSet<>();
        c.get("env").forEach(e -> env.add(e.get("name").asText()));
        assertThat(env).as("environment of %s", c.get("name").asText()).containsAll(variables);
        Set<String> volumes = new HashSet<>();
        podSpec.get("volumes").forEach(v -> volumes.add(v.get("name").asText()));
        c.get("volumeMounts").forEach(m -> assertThat(volumes).contains(m.get("name").asText()));
        podSpec.get("volumes").forEach(v -> {
            if (v.has("configMap")) {
                assertThat(v.at("/configMap/name").asText()).isEqualTo(configMap);
            }
        });
        List<String> args = strings(c.get("args"));
        assertThat(args.get(args.indexOf("--config") + 1)).isEqualTo("/etc/cloudg/cloudg.yaml");
        assertThat(c.get("volumeMounts").findValuesAsText("mountPath")).contains("/etc/cloudg/cloudg.yaml");
        if (probes) {
            JsonNode port = c.get("ports").get(0);
            assertThat(port.get("containerPort").asInt()).isEqualTo(healthPort);
            assertThat(c.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
            assertThat(c.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
            assertThat(c.at("/readinessProbe/httpGet/port").asText()).isEqualTo(port.get("name").asText());
            assertThat(c.at("/livenessProbe/httpGet/port").asText()).isEqualTo(port.get("name").asText());
        }
        assertThat(c.at("/resources/requests/cpu").isMissingNode()).isFalse();
        assertThat(c.at("/resources/requests/memory").isMissingNode()).isFalse();
    }

    @Test
    void theKustomizeBaseAndOverlayAreCompleteAndConsistent() throws IOException {
        for (Path dir : List.of(ROOT.resolve("deploy/base"), ROOT.resolve("deploy/overlays/example"))) {
            List<JsonNode> all = new ArrayList<>();
            for (Path m : kustomize(dir)) {
                for (JsonNode d : docs(m)) {
                    assertThat(d.has("apiVersion") && d.has("kind") && d.at("/metadata/name").isTextual()).as("%s", m).isTrue();
                    all.add(d);
                }
            }
            Path cloudgYaml = dir.resolve("cloudg.yaml");
            Loaded config = assertConfigLoads(cloudgYaml);
            Set<String> variables = secretVariables(cloudgYaml);
            assertThat(variables).contains("CLOUDG_KAFKA_PASSWORD", "CLOUDG_REDIS_PASSWORD");
            int healthPort = config.fleet().worker().healthPort();

            JsonNode worker = byKind(all, "Deployment", "cloudg-worker");
            assertPodSpec(worker.at("/spec/template/spec"), variables, healthPort, true, "cloudg-config");
            JsonNode podLabels = worker.at("/spec/template/metadata/labels");
            worker.at("/spec/selector/matchLabels").properties().forEach(l ->
                    assertThat(podLabels.get(l.getKey())).as("selector label %s", l.getKey()).isEqualTo(l.getValue()));
            assertThat(worker.at("/spec/template/spec/terminationGracePeriodSeconds").asLong())
                    .as("the pod outlives the worker's shutdown grace")
                    .isGreaterThan(config.fleet().worker().shutdownGrace().toSeconds() + 5);
            assertThat(config.fleet().kafka().sslTruststoreLocation()).startsWith("/etc/cloudg/kafka-tls/");
            JsonNode job = byKind(all, "Job", "cloudg-map");
            assertPodSpec(job.at("/spec/template/spec"), variables, healthPort, false, "cloudg-config");
            assertThat(strings(job.at("/spec/template/spec/containers/0/args"))).contains("--distributed");
            JsonNode hpa = byKind(all, "HorizontalPodAutoscaler", "cloudg-worker");
            assertThat(hpa.at("/spec/scaleTargetRef/name").asText()).isEqualTo("cloudg-worker");
            assertThat(hpa.at("/spec/maxReplicas").asInt()).as("no more workers than task partitions")
                    .isLessThanOrEqualTo(config.fleet().topics().taskPartitions());
            byKind(all, "PodDisruptionBudget", "cloudg-worker");
            byKind(all, "ServiceAccount", "cloudg");
            assertThat(worker.at("/spec/template/spec/serviceAccountName").asText()).isEqualTo("cloudg");
        }
        JsonNode base = docs(ROOT.resolve("deploy/base/kustomization.yaml")).get(0);
        JsonNode overlay = docs(ROOT.resolve("deploy/overlays/example/kustomization.yaml")).get(0);
        assertThat(base.at("/images/0/name").asText()).isEqualTo("cloudg");
        assertThat(overlay.at("/images/0/name").asText()).isEqualTo(base.at("/images/0/newName").asText());
        assertThat(overlay.at("/configMapGenerator/0/name").asText()).isEqualTo(base.at("/configMapGenerator/0/name").asText());
    }

    @Test
    void composeRunsTheWholeFleetWithConsistentAddresses() throws IOException {
        JsonNode compose = docs(ROOT.resolve("compose.yaml")).get(0);
        JsonNode services = compose.get("services");
        assertThat(services.fieldNames()).toIterable().contains("redis", "kafka", "cloud-sim", "coordinator", "worker");
        assertThat(services.at("/worker/deploy/replicas").asInt()).as("workers scale").isGreaterThan(1);
        for (String s : List.of("cloud-sim", "worker", "coordinator")) {
            JsonNode svc = services.get(s);
            assertCommandParses(strings(svc.get("command")));
            JsonNode volumes = svc.has("volumes") ? svc.get("volumes") : compose.at("/x-cloudg/volumes");
            for (String v : strings(volumes)) {
                Path source = ROOT.resolve(v.split(":")[0]).normalize();
                if (v.endsWith(":ro")) {
                    assertThat(source).as("volume of %s", s).exists();
                }
            }
        }
        Path cloudgYaml = ROOT.resolve("deploy/compose/cloudg.yaml");
        Loaded config = assertConfigLoads(cloudgYaml);
        assertThat(strings(compose.at("/x-cloudg/volumes"))).contains("./deploy/compose/cloudg.yaml:/etc/cloudg/cloudg.yaml:ro");

        URI sim = config.config().aws().endpointUrl();
        List<String> simCommand = strings(services.at("/cloud-sim/command"));
        assertThat(sim.getHost()).isEqualTo("cloud-sim");
        assertThat(sim.getPort()).isEqualTo(Integer.parseInt(simCommand.get(simCommand.indexOf("--port") + 1)));

        String bootstrap = config.fleet().kafka().bootstrapServers();
        assertThat(services.at("/kafka/environment/KAFKA_ADVERTISED_LISTENERS").asText()).isEqualTo("PLAINTEXT://" + bootstrap);
        URI redis = URI.create(config.config().ratelimit().redis().url());
        assertThat(redis.getHost()).isEqualTo("redis");
        assertThat(strings(services.at("/redis/ports"))).contains(redis.getPort() + ":" + redis.getPort());
        List<String> map = strings(services.at("/coordinator/command"));
        assertThat(map).contains("--distributed");
        assertThat(strings(services.at("/coordinator/volumes"))).anySatisfy(v -> assertThat(v).endsWith(":" + map.get(map.indexOf("--out") + 1)));
    }

    @Test
    void theJibProfileBuildsTheLauncherWithTheProbePort() throws Exception {
        String pom = Files.readString(ROOT.resolve("cli/pom.xml"));
        Matcher profile = Pattern.compile("<profile>\\s*<id>jib</id>(.*?)</profile>", Pattern.DOTALL).matcher(pom);
        assertThat(profile.find()).as("a jib profile, outside the default build").isTrue();
        String jib = profile.group(1);
        assertThat(jib).contains("<artifactId>jib-maven-plugin</artifactId>", "<version>3.5.2</version>");
        Matcher main = Pattern.compile("<mainClass>([^<]+)</mainClass>").matcher(jib);
        assertThat(main.find()).isTrue();
        assertThat(Class.forName(main.group(1))).isEqualTo(Main.class);
        int probes = assertConfigLoads(ROOT.resolve("deploy/base/cloudg.yaml")).fleet().worker().healthPort();
        assertThat(jib).contains("<port>" + probes + "</port>");
        assertThat(pom.substring(0, pom.indexOf("<profiles>"))).doesNotContain("jib-maven-plugin");
    }
}
