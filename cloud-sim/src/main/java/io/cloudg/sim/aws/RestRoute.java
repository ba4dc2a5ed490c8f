package io.cloudg.sim.aws;

import java.util.HashMap;
import java.util.Map;

/**
 * A REST operation's HTTP method and URI template, e.g. {@code GET /2015-03-31/functions} or
 * {@code GET /{Bucket}?location}. Template segments {@code {Name}} bind the member whose location name
 * is {@code Name}; a {@code ?key} suffix requires that query parameter (S3 sub-resources).
 */
public record RestRoute(String method, String[] segments, String requiredQuery) {

    public static RestRoute of(String method, String template) {
        String path = template;
        String q = null;
        int qi = template.indexOf('?');
        if (qi >= 0) {
            path = template.substring(0, qi);
            q = template.substring(qi + 1);
        }
        String trimmed = path.replaceAll("^/+|/+$", "");
        return new RestRoute(method, trimmed.isEmpty() ? new String[0] : trimmed.split("/"), q);
    }

    /** The bound path variables if the request matches, else null. */
    public Map<String, String> match(String method, String path, java.util.function.Predicate<String> hasQuery) {
        if (!this.method.equals(method) || (requiredQuery != null && !hasQuery.test(requiredQuery))) {
            return null;
        }
        String trimmed = path.replaceAll("^/+|/+$", "");
        String[] parts = trimmed.isEmpty() ? new String[0] : trimmed.split("/");
        if (parts.length != segments.length) {
            return null;
        }
        Map<String, String> vars = new HashMap<>();
        for (int i = 0; i < parts.length; i++) {
            String s = segments[i];
            if (s.startsWith("{") && s.endsWith("}")) {
                vars.put(s.substring(1, s.length() - 1), parts[i]);
            } else if (!s.equals(parts[i])) {
                return null;
            }
        }
        return vars;
    }

    /** Routes with a required query parameter are tried first. */
    public int specificity() {
        return segments.length * 2 + (requiredQuery != null ? 1 : 0);
    }
}
