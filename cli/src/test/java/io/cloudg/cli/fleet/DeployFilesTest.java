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
 * machine without Kubernetes or Docker can: every kustomization renders ({@link Kustomize}: resources and
 * patches), and every manifest it renders is valid for the API server, strictly ({@link StrictManifests}:
 * fabric8's models for built-in kinds, JSON Schemas written from KEDA's and the Prometheus Operator's CRDs,
 * an unknown field fails); every pod passes Pod Security "restricted"; no {@code replicas} where an
 * autoscaler owns the Deployment; KEDA's trigger and the sweeps' run id agree with the fleet; each
 * {@code cloudg.yaml} they mount loads without an unknown key; every container command is a cloudg command
 * line that parses; ports, probes, secrets, volumes, images and environment variables referenced in one
 * place exist in the other.
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

    static JsonNode byKind(List<Kustomize.Doc> all, String kind, String name) {
        return all.stream().filter(d -> d.kind().equals(kind) && d.name().equals(name)).map(Kustomize.Doc::node)
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

    /** The files a cloudg.yaml reads besides itself: the Kafka trust store, Redis's CA. */
    static List<String> configFiles(Loaded config) {
        List<String> files = new java.util.ArrayList<>();
        if (config.fleet().kafka().sslTruststoreLocation() != null) {
            files.add(config.fleet().kafka().sslTruststoreLocation());
        }
        var redis = config.config().ratelimit().redis();
        if (redis.caFile() != null) {
            files.add(redis.caFile());
        }
        if (redis.trustStore() != null) {
            files.add(redis.trustStore());
        }
        return files;
    }

    /** Each of {@code files} lies in a directory the pod mounts from a Secret or a ConfigMap. */
    static void assertFilesMounted(String where, JsonNode podSpec, List<String> files) {
        Map<String, JsonNode> volumes = new java.util.HashMap<>();
        podSpec.get("volumes").forEach(v -> volumes.put(v.get("name").asText(), v));
        for (String file : files) {
            boolean mounted = false;
            for (JsonNode m : podSpec.at("/containers/0/volumeMounts")) {
                JsonNode v = volumes.get(m.get("name").asText());
                if (!m.has("subPath") && file.startsWith(m.get("mountPath").asText() + "/") && v != null
                        && (v.has("secret") || v.has("configMap"))) {
                    mounted = true;
                }
            }
            assertThat(mounted).as("%s: %s is mounted from a Secret or ConfigMap", where, file).isTrue();
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

    /** Every directory of deploy/ with a kustomization.yaml. */
    static List<Path> kustomizations() throws IOException {
        try (java.util.stream.Stream<Path> s = Files.walk(ROOT.resolve("deploy"))) {
            return s.filter(p -> p.getFileName().toString().equals("kustomization.yaml")).map(Path::getParent).sorted()
                    .toList();
        }
    }

    /** The cloudg.yaml a kustomization's ConfigMap is generated from (its own, or its base's). */
    static Path cloudgYaml(Path dir) throws IOException {
        JsonNode k = docs(dir.resolve("kustomization.yaml")).get(0);
        for (JsonNode g : k.path("configMapGenerator")) {
            for (String f : strings(g.get("files"))) {
                return dir.resolve(f);
            }
        }
        for (String r : strings(k.get("resources"))) {
            Path p = dir.resolve(r).normalize();
            if (Files.isDirectory(p)) {
                return cloudgYaml(p);
            }
        }
        throw new AssertionError("no cloudg.yaml for " + dir);
    }

    /** The pod templates of the rendered workloads, by kind/name. */
    static Map<String, JsonNode> podTemplates(List<Kustomize.Doc> all) {
        Map<String, JsonNode> out = new java.util.TreeMap<>();
        for (Kustomize.Doc d : all) {
            JsonNode t = switch (d.kind()) {
                case "Deployment", "Job" -> d.node().at("/spec/template");
                case "CronJob" -> d.node().at("/spec/jobTemplate/spec/template");
                default -> null;
            };
            if (t != null) {
                out.put(d.kind() + "/" + d.name(), t);
            }
        }
        return out;
    }

    /** Pod Security Standards, "restricted" profile (Kubernetes 1.25+), as far as a pod spec shows it. */
    static void assertRestricted(String what, JsonNode pod) {
        JsonNode sc = pod.path("securityContext");
        assertThat(sc.path("runAsNonRoot").asBoolean()).as("%s: runAsNonRoot", what).isTrue();
        assertThat(sc.path("runAsUser").asInt(1)).as("%s: runAsUser", what).isNotZero();
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            assertThat(pod.path(host).asBoolean()).as("%s: %s", what, host).isFalse();
        }
        for (JsonNode v : pod.path("volumes")) {
            Set<String> types = new HashSet<>();
            v.fieldNames().forEachRemaining(types::add);
            types.remove("name");
            assertThat(Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim",
                    "projected", "secret")).as("%s: volume types allowed by restricted", what).containsAll(types);
        }
        for (JsonNode c : pod.path("containers")) {
            String who = what + " container " + c.path("name").asText();
            JsonNode csc = c.path("securityContext");
            assertThat(csc.path("allowPrivilegeEscalation").isBoolean() && !csc.path("allowPrivilegeEscalation").asBoolean())
                    .as("%s: allowPrivilegeEscalation false", who).isTrue();
            assertThat(csc.path("privileged").asBoolean()).as("%s: privileged", who).isFalse();
            assertThat(strings(csc.at("/capabilities/drop"))).as("%s: drops ALL", who).contains("ALL");
            assertThat(strings(csc.at("/capabilities/add"))).as("%s: adds", who).isSubsetOf("NET_BIND_SERVICE");
            String seccomp = csc.at("/seccompProfile/type").asText(sc.at("/seccompProfile/type").asText());
            assertThat(seccomp).as("%s: seccompProfile", who).isIn("RuntimeDefault", "Localhost");
            if (csc.has("runAsNonRoot")) {
                assertThat(csc.get("runAsNonRoot").asBoolean()).as("%s: runAsNonRoot", who).isTrue();
            }
            for (JsonNode port : c.path("ports")) {
                assertThat(port.has("hostPort")).as("%s: hostPort", who).isFalse();
            }
        }
    }

    @Test
    void everyKustomizationRendersManifestsTheApiServerWouldTakeStrictly() throws IOException {
        List<Path> dirs = kustomizations();
        assertThat(dirs.stream().map(d -> ROOT.resolve("deploy").relativize(d).toString().replace('\\', '/')))
                .contains("base", "overlays/example", "overlays/hpa-cpu", "overlays/prometheus-operator",
                        "overlays/identity/eks-irsa", "overlays/identity/eks-pod-identity", "overlays/identity/aks",
                        "overlays/identity/gke");
        for (Path dir : dirs) {
            for (Kustomize.Doc d : Kustomize.render(dir)) {
                assertThat(StrictManifests.problems(d.node())).as("%s %s rendered by %s (from %s)", d.kind(), d.name(),
                        dir, d.file()).isEmpty();
            }
            for (Kustomize.Doc p : Kustomize.patches(dir)) {
                if (!p.node().has("$patch") && StrictManifests.MODELS.containsKey(p.apiVersion() + "/" + p.kind())) {
                    assertThat(StrictManifests.problems(p.node())).as("patch %s", p.file()).isEmpty();
                }
            }
        }
    }

    /**
     * The KEDA resources of a rendering that no ScaledObject uses: all of them when there is no ScaledObject
     * (a cluster without KEDA refuses their kinds, failing the whole apply), else the TriggerAuthentications
     * no trigger names.
     */
    static List<String> unusedKeda(List<Kustomize.Doc> all) {
        List<Kustomize.Doc> scaled = all.stream().filter(d -> d.keda() && d.kind().equals("ScaledObject")).toList();
        Set<String> auths = new HashSet<>();
        for (Kustomize.Doc d : scaled) {
            d.node().at("/spec/triggers").forEach(t -> auths.add(t.at("/authenticationRef/name").asText()));
        }
        return all.stream().filter(Kustomize.Doc::keda)
                .filter(d -> scaled.isEmpty() || (d.kind().equals("TriggerAuthentication") && !auths.contains(d.name())))
                .map(d -> d.kind() + " " + d.name() + " (" + ROOT.relativize(d.file()) + ")").toList();
    }

    @Test
    void theHpaCpuOverlayRendersNoKedaResource() throws IOException {
        Path hpa = ROOT.resolve("deploy/overlays/hpa-cpu");
        List<Kustomize.Doc> all = Kustomize.render(hpa);
        assertThat(all.stream().filter(Kustomize.Doc::keda).map(d -> d.kind() + " " + d.name()))
                .as("KEDA resources in the overlay documented as without KEDA").isEmpty();
        assertThat(all).extracting(Kustomize.Doc::kind).contains("HorizontalPodAutoscaler", "Deployment");
        // the check catches what the overlay used to leave: the base without its ScaledObject only
        List<Kustomize.Doc> base = new ArrayList<>(Kustomize.render(ROOT.resolve("deploy/base")));
        assertThat(unusedKeda(base)).as("the base's ScaledObject uses its TriggerAuthentication").isEmpty();
        base.removeIf(d -> d.kind().equals("ScaledObject"));
        assertThat(unusedKeda(base)).singleElement().asString().startsWith("TriggerAuthentication cloudg-kafka");
    }

    @Test
    void theStrictCheckCatchesUnknownFieldsWrongTypesAndUnknownKinds() throws IOException {
        JsonNode typo = YAML.readTree("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: w}
                spec:
                  replicas: 1
                  selector: {matchLabels: {a: b}}
                  template:
                    metadata: {labels: {a: b}}
                    spec:
                      containers: [{name: c, image: i, resources: {requests: {cpu: 1}}, livenesProbe: {}}]
                """);
        assertThat(StrictManifests.problems(typo)).singleElement().asString().contains("livenesProbe");
        JsonNode string = YAML.readTree("{apiVersion: apps/v1, kind: Deployment, metadata: {name: w}, spec: {replicas: \"2\"}}");
        assertThat(StrictManifests.problems(string)).singleElement().asString().contains("apps/v1/Deployment");
        JsonNode keda = YAML.readTree("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: w}
                spec:
                  scaleTargetRef: {name: w}
                  maxReplicas: 3
                  triggers: [{type: kafka, metadata: {lagThreshold: "5", consumerGroupp: g}}]
                """);
        assertThat(StrictManifests.problems(keda)).hasSize(2).anySatisfy(m -> assertThat(m).contains("maxReplicas"))
                .anySatisfy(m -> assertThat(m).contains("consumerGroupp"));
        assertThat(StrictManifests.problems(YAML.readTree("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}")))
                .singleElement().asString().startsWith("no model or schema for example.com/v1/Widget");
    }

    @Test
    void everyOverlayIsCompleteAndConsistent() throws IOException {
        for (Path dir : kustomizations()) {
            List<Kustomize.Doc> all = Kustomize.render(dir);
            Path cloudgYaml = cloudgYaml(dir);
            Loaded config = assertConfigLoads(cloudgYaml);
            Set<String> variables = secretVariables(cloudgYaml);
            assertThat(variables).contains("CLOUDG_KAFKA_PASSWORD", "CLOUDG_REDIS_PASSWORD");
            int healthPort = config.fleet().worker().healthPort();
            String where = ROOT.relativize(dir).toString();

            JsonNode worker = byKind(all, "Deployment", "cloudg-worker");
            assertPodSpec(worker.at("/spec/template/spec"), variables, healthPort, true, "cloudg-config");
            List<String> files = configFiles(config);
            if (config.config().ratelimit().redis().tls()) {
                assertThat(config.config().ratelimit().redis().caFile()).as("%s: the CA of its rediss:// Redis", where)
                        .startsWith("/etc/cloudg/redis-ca/");
            }
            for (JsonNode pod : List.of(worker.at("/spec/template/spec"), byKind(all, "Job", "cloudg-map").at("/spec/template/spec"),
                    byKind(all, "CronJob", "cloudg-sweep").at("/spec/jobTemplate/spec/template/spec"))) {
                assertFilesMounted(where, pod, files);
            }
            JsonNode podLabels = worker.at("/spec/template/metadata/labels");
            worker.at("/spec/selector/matchLabels").properties().forEach(l ->
                    assertThat(podLabels.get(l.getKey())).as("selector label %s", l.getKey()).isEqualTo(l.getValue()));
            assertThat(worker.at("/spec/template/spec/terminationGracePeriodSeconds").asLong())
                    .as("the pod outlives the worker's shutdown grace")
                    .isGreaterThan(config.fleet().worker().shutdownGrace().toSeconds() + 5);
            assertThat(config.fleet().kafka().sslTruststoreLocation()).startsWith("/etc/cloudg/kafka-tls/");
            assertThat(worker.at("/spec/replicas").isMissingNode()).as("%s: the autoscaler owns the worker count", where)
                    .isTrue();
            assertThat(worker.at("/spec/template/spec/serviceAccountName").asText()).isEqualTo("cloudg");

            List<Kustomize.Doc> scaled = all.stream().filter(d -> d.kind().equals("ScaledObject")).toList();
            List<Kustomize.Doc> hpas = all.stream().filter(d -> d.kind().equals("HorizontalPodAutoscaler")).toList();
            assertThat(scaled.size() + hpas.size()).as("%s: one autoscaler for the workers", where).isEqualTo(1);
            int partitions = config.fleet().topics().taskPartitions();
            for (Kustomize.Doc d : scaled) {
                JsonNode so = d.node();
                assertThat(so.at("/spec/scaleTargetRef/name").asText()).isEqualTo("cloudg-worker");
                assertThat(so.at("/spec/minReplicaCount").asInt()).as("scale to zero between runs").isZero();
                assertThat(so.at("/spec/maxReplicaCount").asInt()).as("%s: no more workers than task partitions", where)
                        .isBetween(1, partitions);
                JsonNode trigger = so.at("/spec/triggers/0");
                assertThat(trigger.get("type").asText()).isEqualTo("kafka");
                JsonNode m = trigger.get("metadata");
                assertThat(m.get("bootstrapServers").asText()).as("%s: KEDA's brokers", where)
                        .isEqualTo(config.fleet().kafka().bootstrapServers());
                assertThat(m.get("consumerGroup").asText()).isEqualTo(config.fleet().group());
                assertThat(m.get("topic").asText()).isEqualTo(config.fleet().topics().tasks());
                assertThat(m.get("offsetResetPolicy").asText()).as("workers read from the earliest").isEqualTo("earliest");
                assertThat(Integer.parseInt(m.get("lagThreshold").asText()))
                        .isGreaterThanOrEqualTo(config.fleet().worker().maxInFlight());
                if ("SASL_SSL".equals(config.fleet().kafka().securityProtocol())) {
                    assertThat(m.get("tls").asText()).isEqualTo("enable");
                    assertThat(m.get("sasl").asText()).isEqualTo(config.fleet().kafka().saslMechanism().toLowerCase(java.util.Locale.ROOT)
                            .replace("-", "_").replace("_sha_", "_sha"));
                }
                byKind(all, "TriggerAuthentication", trigger.at("/authenticationRef/name").asText());
            }
            for (Kustomize.Doc d : hpas) {
                assertThat(d.node().at("/spec/scaleTargetRef/name").asText()).isEqualTo("cloudg-worker");
                assertThat(d.node().at("/spec/maxReplicas").asInt()).as("no more workers than task partitions")
                        .isLessThanOrEqualTo(partitions);
            }
            assertThat(unusedKeda(all)).as("%s: KEDA resources no ScaledObject uses", where).isEmpty();
            byKind(all, "PodDisruptionBudget", "cloudg-worker");
            byKind(all, "ServiceAccount", "cloudg");

            JsonNode job = byKind(all, "Job", "cloudg-map");
            assertPodSpec(job.at("/spec/template/spec"), variables, healthPort, false, "cloudg-config");
            assertNamedRun(job.at("/spec/template/spec"), "controller-uid");
            assertFinalExitCodes(job.at("/spec"));
            JsonNode sweep = byKind(all, "CronJob", "cloudg-sweep");
            assertThat(sweep.at("/spec/concurrencyPolicy").asText()).isEqualTo("Forbid");
            JsonNode sweepJob = sweep.at("/spec/jobTemplate/spec");
            assertThat(sweepJob.get("backoffLimit").asInt()).as("a failed pod is retried (and resumes)").isPositive();
            assertPodSpec(sweepJob.at("/template/spec"), variables, healthPort, false, "cloudg-config");
            assertNamedRun(sweepJob.at("/template/spec"), "job-name");
            assertFinalExitCodes(sweepJob);
            assertMapsKept(where, all, job.at("/spec/template/spec"));
            assertMapsKept(where, all, sweepJob.at("/template/spec"));

            for (Map.Entry<String, JsonNode> pod : podTemplates(all).entrySet()) {
                assertRestricted(where + " " + pod.getKey(), pod.getValue().get("spec"));
                JsonNode ann = pod.getValue().at("/metadata/annotations");
                if (ann.has("prometheus.io/port")) {
                    assertThat(pod.getValue().at("/spec/containers/0/ports").findValuesAsText("containerPort"))
                            .as("%s: the scraped port is a container port", pod.getKey())
                            .contains(ann.get("prometheus.io/port").asText());
                }
            }
            for (Kustomize.Doc d : all) {
                if (d.kind().equals("PodMonitor")) {
                    String app = d.node().at("/spec/selector/matchLabels/app.kubernetes.io~1name").asText();
                    String port = d.node().at("/spec/podMetricsEndpoints/0/port").asText();
                    List<JsonNode> selected = podTemplates(all).values().stream()
                            .filter(t -> t.at("/metadata/labels/app.kubernetes.io~1name").asText().equals(app)).toList();
                    assertThat(selected).as("pods of %s", d.name()).isNotEmpty();
                    selected.forEach(t -> assertThat(t.at("/spec/containers/0/ports").findValuesAsText("name"))
                            .as("%s scrapes a named port", d.name()).contains(port));
                }
            }
        }
    }

    /** The run is named after the Job (so a retried pod resumes it): --run-id from the pod's {@code label}. */
    static void assertNamedRun(JsonNode podSpec, String label) {
        JsonNode c = podSpec.at("/containers/0");
        List<String> args = strings(c.get("args"));
        assertThat(args).contains("--distributed", "--metrics-port");
        String runId = args.get(args.indexOf("--run-id") + 1);
        assertThat(runId).isEqualTo("$(CLOUDG_RUN_ID)");
        JsonNode env = null;
        for (JsonNode e : c.get("env")) {
            if (e.get("name").asText().equals("CLOUDG_RUN_ID")) {
                env = e;
            }
        }
        assertThat(env).as("CLOUDG_RUN_ID is defined").isNotNull();
        assertThat(env.at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("metadata.labels['" + label + "']");
        assertThat(podSpec.get("restartPolicy").asText()).as("podFailurePolicy needs Never").isEqualTo("Never");
    }

    /**
     * The coordinator writes its maps (--out) to a volume that outlives the pod: a PersistentVolumeClaim the
     * same rendering creates, not an emptyDir (lost with the pod).
     */
    static void assertMapsKept(String where, List<Kustomize.Doc> all, JsonNode podSpec) {
        List<String> args = strings(podSpec.at("/containers/0/args"));
        String out = args.get(args.indexOf("--out") + 1);
        JsonNode mount = null;
        for (JsonNode m : podSpec.at("/containers/0/volumeMounts")) {
            String path = m.get("mountPath").asText();
            if (out.equals(path) || out.startsWith(path.endsWith("/") ? path : path + "/")) {
                mount = m;
            }
        }
        assertThat(mount).as("%s: a volume is mounted at --out %s", where, out).isNotNull();
        JsonNode volume = null;
        for (JsonNode v : podSpec.get("volumes")) {
            if (v.get("name").asText().equals(mount.get("name").asText())) {
                volume = v;
            }
        }
        assertThat(volume).as("%s: the volume %s", where, mount.get("name")).isNotNull();
        assertThat(volume.has("emptyDir")).as("%s: the maps in an emptyDir are lost with the pod", where).isFalse();
        String claim = volume.at("/persistentVolumeClaim/claimName").asText();
        assertThat(claim).as("%s: the maps are on a PersistentVolumeClaim", where).isNotEmpty();
        JsonNode pvc = byKind(all, "PersistentVolumeClaim", claim);
        assertThat(pvc.at("/spec/resources/requests/storage").asText()).as("%s: the claim's size", where).isNotEmpty();
        assertThat(strings(pvc.at("/spec/accessModes"))).as("%s: the claim's access mode", where).isNotEmpty();
    }

    /** Exit 2 (cannot start) and 3 (written, coverage incomplete) end the Job: retrying would not help. */
    static void assertFinalExitCodes(JsonNode jobSpec) {
        JsonNode rule = jobSpec.at("/podFailurePolicy/rules/0");
        assertThat(rule.get("action").asText()).isEqualTo("FailJob");
        assertThat(rule.at("/onExitCodes/operator").asText()).isEqualTo("In");
        assertThat(strings(rule.at("/onExitCodes/values"))).containsExactlyInAnyOrder("2", "3");
    }

    @Test
    void theIdentityOverlaysSetWhatEachCloudNeeds() throws IOException {
        Path identity = ROOT.resolve("deploy/overlays/identity");
        JsonNode irsa = byKind(Kustomize.render(identity.resolve("eks-irsa")), "ServiceAccount", "cloudg");
        assertThat(irsa.at("/metadata/annotations/eks.amazonaws.com~1role-arn").asText())
                .matches("arn:aws:iam::\\d{12}:role/[\\w+=,.@/-]+");
        JsonNode pod = byKind(Kustomize.render(identity.resolve("eks-pod-identity")), "ServiceAccount", "cloudg");
        assertThat(pod.at("/metadata/annotations").isMissingNode()).as("Pod Identity needs no annotation").isTrue();
        List<Kustomize.Doc> aks = Kustomize.render(identity.resolve("aks"));
        assertThat(byKind(aks, "ServiceAccount", "cloudg").at("/metadata/annotations/azure.workload.identity~1client-id").asText())
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        podTemplates(aks).forEach((k, t) -> assertThat(t.at("/metadata/labels/azure.workload.identity~1use").asText())
                .as("%s opts in to workload identity", k).isEqualTo("true"));
        assertThat(assertConfigLoads(cloudgYaml(identity.resolve("aks"))).config().providers()).containsExactly("azure");
        JsonNode gke = byKind(Kustomize.render(identity.resolve("gke")), "ServiceAccount", "cloudg");
        assertThat(gke.at("/metadata/annotations/iam.gke.io~1gcp-service-account").asText())
                .matches("[a-z][a-z0-9-]+@[a-z][a-z0-9-]+\\.iam\\.gserviceaccount\\.com");
        assertThat(assertConfigLoads(cloudgYaml(identity.resolve("gke"))).config().providers()).containsExactly("gcp");
    }

    @Test
    void theBaseAndTheExampleShareImageAndConfigMapNames() throws IOException {
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
        JsonNode kafkaEnv = services.at("/kafka/environment");
        List<String> advertised = List.of(kafkaEnv.get("KAFKA_ADVERTISED_LISTENERS").asText().split(","));
        assertThat(advertised).as("the containers' listener").contains("PLAINTEXT://" + bootstrap);
        String hostListener = advertised.stream().filter(l -> l.contains("//localhost:")).findFirst()
                .orElseThrow(() -> new AssertionError("no listener advertised to the host: " + advertised));
        String hostPort = hostListener.substring(hostListener.lastIndexOf(':') + 1);
        String hostName = hostListener.substring(0, hostListener.indexOf(':'));
        assertThat(strings(services.at("/kafka/ports"))).as("the host's listener is published").contains(hostPort + ":" + hostPort);
        assertThat(kafkaEnv.get("KAFKA_LISTENERS").asText()).contains(hostName + "://:" + hostPort);
        assertThat(kafkaEnv.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").asText()).contains(hostName + ":PLAINTEXT");
        URI redis = URI.create(config.config().ratelimit().redis().url());
        assertThat(redis.getHost()).isEqualTo("redis");
        assertThat(strings(services.at("/redis/ports"))).contains(redis.getPort() + ":" + redis.getPort());
        List<String> map = strings(services.at("/coordinator/command"));
        assertThat(map).contains("--distributed");
        // ./out: made by the out service (as root) for the user the coordinator runs as
        String user = services.at("/coordinator/user").asText();
        assertThat(user).isEqualTo("${CLOUDG_UID:-1000}:${CLOUDG_GID:-1000}");
        JsonNode out = services.get("out");
        assertThat(out.get("user").asText()).isEqualTo("0:0");
        assertThat(String.join(" ", strings(out.get("entrypoint")))).contains("chown " + user + " /out");
        assertThat(services.at("/coordinator/depends_on/out/condition").asText()).isEqualTo("service_completed_successfully");
        assertThat(strings(out.get("volumes"))).containsExactly("./out:/out");
        // Prometheus scrapes the workers and the coordinator where they serve /metrics
        JsonNode prometheus = services.get("prometheus");
        for (String v : strings(prometheus.get("volumes"))) {
            assertThat(ROOT.resolve(v.split(":")[0]).normalize()).as("volume of prometheus").exists();
        }
        JsonNode scrape = docs(ROOT.resolve("deploy/prometheus/prometheus-compose.yml")).get(0);
        Map<String, Integer> ports = new java.util.HashMap<>();
        scrape.get("scrape_configs").forEach(j -> ports.put(j.at("/dns_sd_configs/0/names/0").asText(),
                j.at("/dns_sd_configs/0/port").asInt()));
        assertThat(ports).containsEntry("worker", config.fleet().worker().healthPort())
                .containsEntry("coordinator", Integer.parseInt(map.get(map.indexOf("--metrics-port") + 1)));
        assertThat(strings(services.at("/coordinator/volumes"))).anySatisfy(v -> assertThat(v).endsWith(":" + map.get(map.indexOf("--out") + 1)));
    }

    @Test
    void theJibProfileBuildsTheLauncherWithTheProbePort() throws Exception {
        String pom = Files.readString(ROOT.resolve("cli/pom.xml"));
        Matcher profile = Pattern.compile("<profile>\\s*<id>jib</id>(.*?)</profile>", Pattern.DOTALL).matcher(pom);
        assertThat(profile.find()).as("a jib profile, outside the default build").isTrue();
        String jib = profile.group(1);
        assertThat(jib).contains("<artifactId>jib-maven-plugin</artifactId>", "<version>3.5.2</version>");
        int probes = assertConfigLoads(ROOT.resolve("deploy/base/cloudg.yaml")).fleet().worker().healthPort();
        assertThat(jib).contains("<port>" + probes + "</port>", "<port>9464</port>");
        assertThat(jib.replaceAll("\\s", "")).as("an image for both architectures").contains(
                "<platform><architecture>amd64</architecture><os>linux</os></platform>",
                "<platform><architecture>arm64</architecture><os>linux</os></platform>");
        assertThat(pom.substring(0, pom.indexOf("<profiles>"))).doesNotContain("jib-maven-plugin");

        // the entry point is the launcher, copied beside Jib's layout, which it runs Main from
        String flat = jib.replaceAll("\\s", "");
        assertThat(flat).as("the launcher is the entry point").contains("<entrypoint><arg>/app/cloudg</arg></entrypoint>")
                .contains("<from>${project.basedir}/..</from><into>/app</into><includes>cloudg</includes>")
                .contains("<file>/app/cloudg</file><mode>755</mode>");
        assertThat(jib).as("Jib ignores these beside an entry point").doesNotContain("<mainClass>", "<jvmFlags>");
        Matcher opts = Pattern.compile("<JAVA_OPTS>([^<]+)</JAVA_OPTS>").matcher(jib);
        assertThat(opts.find()).as("the image's JVM options in JAVA_OPTS, which the launcher reads").isTrue();
        assertThat(opts.group(1)).contains("-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError");
        String launcher = Files.readString(ROOT.resolve("cloudg"));
        assertThat(launcher).as("the launcher runs Jib's layout").contains("\"$here/classes\"", "\"$here/libs\"",
                "class_path=\"$here/resources:$here/classes:$here/libs/*\"", "${JAVA_OPTS:-} ${CLOUDG_JAVA_OPTS:-}");
        Matcher main = Pattern.compile("-cp \"\\$class_path\" ([\\w.]+) ").matcher(launcher);
        assertThat(main.find()).isTrue();
        assertThat(Class.forName(main.group(1))).isEqualTo(Main.class);
    }

    /** The JVM options variables that make the JVM print "Picked up ..." on stderr, before any log line. */
    static final Set<String> BANNERED = Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    @Test
    void jvmOptionsReachTheLauncherWithoutTheJvmsPickedUpBanner() throws IOException {
        for (Path dir : kustomizations()) {
            for (Map.Entry<String, JsonNode> pod : podTemplates(Kustomize.render(dir)).entrySet()) {
                for (JsonNode c : pod.getValue().at("/spec/containers")) {
                    Set<String> env = new HashSet<>(c.path("env").findValuesAsText("name"));
                    assertThat(env).as("%s %s", ROOT.relativize(dir), pod.getKey()).doesNotContainAnyElementsOf(BANNERED);
                    if (c.path("image").asText().equals("cloudg")) {
                        assertThat(env).as("%s %s: JVM options for the launcher", ROOT.relativize(dir), pod.getKey())
                                .contains("CLOUDG_JAVA_OPTS");
                    }
                }
            }
        }
        JsonNode compose = docs(ROOT.resolve("compose.yaml")).get(0);
        Set<String> shared = new HashSet<>();
        compose.at("/x-cloudg/environment").fieldNames().forEachRemaining(shared::add);
        assertThat(shared).doesNotContainAnyElementsOf(BANNERED).contains("CLOUDG_JAVA_OPTS");
        compose.get("services").properties().forEach(s -> {
            Set<String> env = new HashSet<>();
            s.getValue().path("environment").fieldNames().forEachRemaining(env::add);
            assertThat(env).as("compose service %s", s.getKey()).doesNotContainAnyElementsOf(BANNERED);
        });
        assertThat(compose.at("/services/worker/environment/CLOUDG_JAVA_OPTS").asText()).startsWith("${");
    }
}
