package io.cloudg.resilience.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${VAR}} and {@code ${VAR:-default}} in the values of a configuration document, replaced from the
 * environment before any section is read ({@code $${} writes a literal {@code ${}}). A value that is one
 * reference and nothing else takes the type its text reads as ({@code port: ${PORT}} is a number when
 * {@code PORT=8080}). A reference to an unset variable without a default fails naming the key and the
 * variable. Keys are never expanded.
 */
public final class EnvExpansion {
    private static final Pattern REF = Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}|\\$\\{([^}]*)}?");

    private EnvExpansion() {
    }

    /** A copy of {@code tree} with every reference replaced; null stays null. */
    public static JsonNode expand(JsonNode tree, Function<String, String> env) {
        return tree == null ? null : expand(tree, "", env);
    }

    private static JsonNode expand(JsonNode node, String path, Function<String, String> env) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.set(e.getKey(), expand(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), env));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            int i = 0;
            for (JsonNode e : node) {
                out.add(expand(e, path + "[" + i++ + "]", env));
            }
            return out;
        }
        if (!node.isTextual() || !node.textValue().contains("${")) {
            return node;
        }
        String text = node.textValue();
        Matcher m = REF.matcher(text);
        StringBuilder b = new StringBuilder();
        int refs = 0;
        boolean literal = false;
        while (m.find()) {
            String replacement;
            if (m.group().equals("$${")) {
                replacement = "${";
                literal = true;
            } else if (m.group(1) == null) {
                throw ConfigErrors.mustBe(path, "text whose ${...} name an environment variable like ${HOME} or "
                        + "${REGION:-us-east-1}", text);
            } else {
                refs++;
                String value = env.apply(m.group(1));
                if (value == null && m.group(2) == null) {
                    throw ConfigErrors.invalid(path, "${" + m.group(1) + "} is not set in the environment (write ${"
                            + m.group(1) + ":-default} to give a default)");
                }
                replacement = value != null ? value : m.group(2);
            }
            m.appendReplacement(b, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(b);
        String expanded = b.toString();
        if (refs == 1 && !literal && text.matches("\\$\\{[^}]*}")) {
            JsonNode typed = ConfigNode.parse(expanded.isEmpty() ? "''" : expanded, path);
            if (typed != null && typed.isValueNode()) {
                return typed;
            }
        }
        return TextNode.valueOf(expanded);
    }
}
