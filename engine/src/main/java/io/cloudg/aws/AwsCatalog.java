package io.cloudg.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.cloudg.resilience.config.ConfigErrors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every deep AWS collector cloudg has, read from {@code io/cloudg/aws/collectors.yaml}: one declarative entry
 * each ({@link CollectorSpec}), run generically through the SDK model ({@link AwsCollector}). The names are
 * the coverage entries ({@code vpc}, {@code s3_buckets}...), the types CloudFormation's, the ids exactly what
 * the listing API returns. The catalog is checked when this class loads: an entry naming an operation or a
 * member the SDK does not have stops the process at once (and the catalog test).
 */
public final class AwsCatalog {
    /** The catalog resource. */
    public static final String RESOURCE = "/io/cloudg/aws/collectors.yaml";

    /** Every collector by name, in catalog order: a fleet's worker and coordinator look up every collector of every task. */
    private static final Map<String, AwsCollector> BY_NAME = load();
    private static final List<AwsCollector> ALL = List.copyOf(BY_NAME.values());

    /** A selection pattern: a collector name, a service ({@code ec2}) or a glob over names ({@code iam_*}, {@code iam.*}). */
    private static final Pattern SELECTOR = Pattern.compile("[a-z0-9_*.]+");

    private AwsCatalog() {
    }

    private static Map<String, AwsCollector> load() {
        JsonNode root;
        try (InputStream in = AwsCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            root = new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        Map<String, AwsCollector> out = new LinkedHashMap<>();
        for (JsonNode entry : root.path("collectors")) {
            CollectorSpec spec = CollectorSpec.read(entry);
            if (out.containsKey(spec.name())) {
                throw new IllegalStateException(RESOURCE + ": collector " + spec.name() + " is declared twice");
            }
            try {
                out.put(spec.name(), new AwsCollector(spec));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(RESOURCE + ": collector " + spec.name() + ": " + e.getMessage(), e);
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** Every collector, in catalog order. */
    public static List<AwsCollector> all() {
        return ALL;
    }

    /** The collector named {@code name}, or null. */
    public static AwsCollector named(String name) {
        return BY_NAME.get(name);
    }

    /**
     * Whether {@code selector} picks collector (or sweep) {@code name} of service {@code service}: equal to the
     * name, equal to the service, or a glob ({@code *} any characters) over the name, where {@code iam.*}
     * means the collectors of service {@code iam}.
     */
    static boolean picks(String selector, String name, String service) {
        if (selector.equals(name) || selector.equals(service)) {
            return true;
        }
        if (!selector.contains("*")) {
            return false;
        }
        int dot = selector.indexOf('.');
        if (dot > 0 && service != null && selector.substring(0, dot).equals(service)) {
            return glob(selector.substring(dot + 1), name);
        }
        return glob(selector, name);
    }

    private static boolean glob(String glob, String s) {
        return s.matches(Pattern.quote(glob).replace("*", "\\E.*\\Q"));
    }

    /**
     * Checks one {@code aws.collectors} / {@code aws.exclude_collectors} entry: it must name a collector, a
     * sweep, or a service, or be a glob that picks at least one of them.
     *
     * @throws io.cloudg.resilience.config.ConfigException naming the key and the value
     */
    public static void validate(String key, String selector) {
        if (!SELECTOR.matcher(selector).matches()) {
            throw ConfigErrors.mustBe(key + " entry", "a collector name, a service (ec2) or a glob (iam_*, iam.*)", selector);
        }
        for (AwsCollector c : ALL) {
            if (picks(selector, c.name(), c.service())) {
                return;
            }
        }
        for (String sweep : AwsProvider.SWEEPS) {
            if (picks(selector, sweep, AwsProvider.serviceOf(sweep))) {
                return;
            }
        }
        throw ConfigErrors.mustBe(key + " entry", "a collector name, a service or a glob that matches one (see cloudg collectors)",
                selector);
    }

    /** Whether a job named {@code name} of {@code service} is selected by {@code only} (all when empty) minus {@code exclude}. */
    public static boolean selected(String name, String service, List<String> only, List<String> exclude) {
        boolean in = only.isEmpty() || only.stream().anyMatch(s -> picks(s, name, service));
        return in && exclude.stream().noneMatch(s -> picks(s, name, service));
    }

    /** The collectors {@code only} (all when empty) picks minus those {@code exclude} picks; bad entries fail, naming them. */
    public static List<AwsCollector> select(List<String> only, List<String> exclude) {
        only.forEach(s -> validate("aws.collectors", s));
        exclude.forEach(s -> validate("aws.exclude_collectors", s));
        List<AwsCollector> out = new ArrayList<>();
        for (AwsCollector c : ALL) {
            if (selected(c.name(), c.service(), only, exclude)) {
                out.add(c);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The resource types the deep collectors cover. */
    public static List<String> coveredTypes() {
        return ALL.stream().map(AwsCollector::type).distinct().toList();
    }

    /** The ARN {@code service:resource-type} pairs the deep collectors list; the tagging sweep skips them. */
    static Set<String> coveredArnTypes() {
        Set<String> out = new LinkedHashSet<>();
        for (AwsCollector c : ALL) {
            String t = c.spec().arnTypeKey();
            if (t != null) {
                out.add(t);
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /** The collectors by service, in catalog order. */
    public static Map<String, List<AwsCollector>> byService() {
        Map<String, List<AwsCollector>> out = new LinkedHashMap<>();
        for (AwsCollector c : ALL) {
            out.computeIfAbsent(c.service(), k -> new ArrayList<>()).add(c);
        }
        return out;
    }
}
