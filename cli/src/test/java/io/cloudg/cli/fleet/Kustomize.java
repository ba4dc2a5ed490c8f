package io.cloudg.cli.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code kubectl apply -k DIR} would apply, as far as cloudg's kustomizations use kustomize: resources
 * (files and bases, recursively) and patches. A patch of a built-in kind is merged the strategic way
 * (objects deep-merged, a {@code null} deletes, lists of named items merged by {@code name}); a patch of a
 * custom resource (KEDA, the Prometheus Operator) is an RFC 7386 merge patch (lists replaced), as kustomize
 * does for kinds it has no schema for; {@code $patch: delete} removes the resource. Only the keys listed in
 * {@link #KEYS} are allowed in a kustomization, so that one this class does not understand fails the test.
 */
final class Kustomize {
    static final Set<String> KEYS = Set.of("apiVersion", "kind", "namespace", "labels", "resources", "patches",
            "configMapGenerator", "images");
    static final Set<String> BUILT_IN_GROUPS = Set.of("v1", "apps/v1", "batch/v1", "policy/v1", "autoscaling/v2");

    private Kustomize() {
    }

    /** A manifest and the file it came from. */
    record Doc(Path file, ObjectNode node) {
        String kind() {
            return node.path("kind").asText();
        }

        String name() {
            return node.at("/metadata/name").asText();
        }

        String apiVersion() {
            return node.path("apiVersion").asText();
        }

        /** A KEDA resource (ScaledObject, TriggerAuthentication, ...): a kind only a cluster with KEDA knows. */
        boolean keda() {
            return apiVersion().startsWith("keda.sh/");
        }
    }

    /** The rendered manifests of the kustomization in {@code dir}. */
    static List<Doc> render(Path dir) throws IOException {
        JsonNode k = DeployFilesTest.docs(dir.resolve("kustomization.yaml")).get(0);
        k.fieldNames().forEachRemaining(f -> assertThat(KEYS).as("a kustomization key in %s", dir).contains(f));
        assertThat(k.get("kind").asText()).isEqualTo("Kustomization");
        List<Doc> out = new ArrayList<>();
        for (String r : DeployFilesTest.strings(k.get("resources"))) {
            Path p = dir.resolve(r).normalize();
            assertThat(p).as("resource %s of %s", r, dir).exists();
            if (Files.isDirectory(p)) {
                out.addAll(render(p));
            } else {
                for (JsonNode d : DeployFilesTest.docs(p)) {
                    out.add(new Doc(p, (ObjectNode) d));
                }
            }
        }
        if (k.has("patches")) {
            for (JsonNode patch : k.get("patches")) {
                patch.fieldNames().forEachRemaining(f -> assertThat(f).as("a patch entry key").isEqualTo("path"));
                Path p = dir.resolve(patch.get("path").asText());
                assertThat(p).as("patch of %s", dir).exists();
                for (JsonNode d : DeployFilesTest.docs(p)) {
                    apply(out, p, (ObjectNode) d);
                }
            }
        }
        return out;
    }

    /** The patches of {@code dir}'s kustomization, as written. */
    static List<Doc> patches(Path dir) throws IOException {
        JsonNode k = DeployFilesTest.docs(dir.resolve("kustomization.yaml")).get(0);
        List<Doc> out = new ArrayList<>();
        for (JsonNode patch : k.path("patches")) {
            Path p = dir.resolve(patch.get("path").asText());
            for (JsonNode d : DeployFilesTest.docs(p)) {
                out.add(new Doc(p, (ObjectNode) d));
            }
        }
        return out;
    }

    private static void apply(List<Doc> docs, Path file, ObjectNode patch) {
        String kind = patch.path("kind").asText();
        String name = patch.at("/metadata/name").asText();
        int i = 0;
        while (i < docs.size() && !(docs.get(i).kind().equals(kind) && docs.get(i).name().equals(name))) {
            i++;
        }
        assertThat(i).as("%s patches %s %s, which is not among the resources", file, kind, name).isLessThan(docs.size());
        if ("delete".equals(patch.path("$patch").asText())) {
            docs.remove(i);
            return;
        }
        Doc target = docs.get(i);
        ObjectNode merged = target.node().deepCopy();
        merge(merged, patch, BUILT_IN_GROUPS.contains(patch.path("apiVersion").asText()));
        docs.set(i, new Doc(target.file(), merged));
    }

    static void merge(ObjectNode target, ObjectNode patch, boolean strategic) {
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            JsonNode current = target.get(key);
            if (value.isNull()) {
                target.remove(key);
            } else if (value.isObject() && current != null && current.isObject()) {
                merge((ObjectNode) current, (ObjectNode) value, strategic);
            } else if (strategic && value.isArray() && current != null && current.isArray() && named(value)) {
                mergeNamed((ArrayNode) current, (ArrayNode) value);
            } else {
                target.set(key, value.deepCopy());
            }
        }
    }

    private static boolean named(JsonNode array) {
        for (JsonNode n : array) {
            if (!n.isObject() || !n.has("name")) {
                return false;
            }
        }
        return array.size() > 0;
    }

    private static void mergeNamed(ArrayNode target, ArrayNode patch) {
        for (JsonNode p : patch) {
            ObjectNode match = null;
            for (JsonNode t : target) {
                if (t.path("name").equals(p.get("name"))) {
                    match = (ObjectNode) t;
                }
            }
            if (match == null) {
                target.add(p.deepCopy());
            } else {
                merge(match, (ObjectNode) p, true);
            }
        }
    }
}
