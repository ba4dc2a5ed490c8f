package io.cloudg.cli.fleet;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Manifests checked as the API server would take them, strictly: a built-in kind is read into its
 * fabric8 Kubernetes model (no coercion of scalars: {@code replicas: "2"} fails) and must leave nothing in
 * any object's {@code additionalProperties} (where fabric8 puts the fields the API does not know); a
 * custom resource is validated against a JSON Schema written from its CRD, every object closed. A kind
 * with neither fails.
 */
final class StrictManifests {
    /** No scalar coercion, except that a quantity may be written as a number ({@code cpu: 1}), as the API allows. */
    static final ObjectMapper MAPPER = JsonMapper.builder().disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .addModule(new com.fasterxml.jackson.databind.module.SimpleModule().addDeserializer(
                    io.fabric8.kubernetes.api.model.Quantity.class,
                    new com.fasterxml.jackson.databind.JsonDeserializer<io.fabric8.kubernetes.api.model.Quantity>() {
                        @Override
                        public io.fabric8.kubernetes.api.model.Quantity deserialize(com.fasterxml.jackson.core.JsonParser p,
                                com.fasterxml.jackson.databind.DeserializationContext ctx) throws IOException {
                            if (!p.currentToken().isScalarValue()) {
                                return (io.fabric8.kubernetes.api.model.Quantity) ctx.handleUnexpectedToken(
                                        io.fabric8.kubernetes.api.model.Quantity.class, p);
                            }
                            return new io.fabric8.kubernetes.api.model.Quantity(p.getText());
                        }
                    }))
            .build();

    static final Map<String, Class<? extends KubernetesResource>> MODELS = Map.of(
            "v1/ServiceAccount", ServiceAccount.class,
            "v1/PersistentVolumeClaim", PersistentVolumeClaim.class,
            "apps/v1/Deployment", Deployment.class,
            "batch/v1/Job", Job.class,
            "batch/v1/CronJob", CronJob.class,
            "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
            "autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class);

    static final Map<String, String> SCHEMAS = Map.of(
            "keda.sh/v1alpha1/ScaledObject", "keda.sh_v1alpha1_ScaledObject.json",
            "keda.sh/v1alpha1/TriggerAuthentication", "keda.sh_v1alpha1_TriggerAuthentication.json",
            "monitoring.coreos.com/v1/PodMonitor", "monitoring.coreos.com_v1_PodMonitor.json");

    private StrictManifests() {
    }

    /** What is wrong with {@code manifest} (empty: nothing). */
    static List<String> problems(JsonNode manifest) throws IOException {
        String type = manifest.path("apiVersion").asText() + "/" + manifest.path("kind").asText();
        Class<? extends KubernetesResource> model = MODELS.get(type);
        if (model != null) {
            Object parsed;
            try {
                parsed = MAPPER.treeToValue(manifest, model);
            } catch (IOException e) {
                return List.of(type + ": " + e.getMessage().lines().findFirst().orElse(""));
            }
            List<String> out = new ArrayList<>();
            unknownFields(parsed, type, out, new IdentityHashMap<>());
            return out;
        }
        String schema = SCHEMAS.get(type);
        if (schema != null) {
            return validate(schema, manifest);
        }
        return List.of("no model or schema for " + type + ": add one before using the kind");
    }

    static List<String> validate(String schema, JsonNode doc) throws IOException {
        try (InputStream in = StrictManifests.class.getResourceAsStream("/schemas/" + schema)) {
            Schema s = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
            List<String> out = new ArrayList<>();
            s.validate(doc).forEach(e -> out.add(e.toString()));
            return out;
        }
    }

    /** Every non-empty {@code additionalProperties} under {@code o}, with the path that leads to it. */
    private static void unknownFields(Object o, String path, List<String> out, IdentityHashMap<Object, Boolean> seen) {
        if (o == null || seen.put(o, true) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                unknownFields(e, path + "[" + i++ + "]", out, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> unknownFields(v, path + "." + k, out, seen));
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method g : o.getClass().getMethods()) {
            if (g.getParameterCount() != 0 || Modifier.isStatic(g.getModifiers()) || g.getDeclaringClass() == Object.class
                    || !(g.getName().startsWith("get") || g.getName().startsWith("is"))) {
                continue;
            }
            Object v;
            try {
                v = g.invoke(o);
            } catch (ReflectiveOperationException e) {
                continue;
            }
            if (g.getName().equals("getAdditionalProperties")) {
                if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    out.add(path + ": unknown field(s) " + new TreeSet<>(extra.keySet().stream().map(String::valueOf).toList()));
                }
                continue;
            }
            unknownFields(v, path + "." + g.getName().replaceFirst("^(get|is)", ""), out, seen);
        }
    }
}
