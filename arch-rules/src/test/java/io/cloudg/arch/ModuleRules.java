package io.cloudg.arch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The dependency rules between cloudg's modules, checked on the sources themselves: every package belongs to
 * exactly one module (no split packages); a module's main code refers only to its own packages and to those
 * of the modules it may depend on (imports, static imports and fully qualified names alike); the modules'
 * POMs declare no other compile dependency on a module of ours; and a few modules must not touch some
 * libraries (the governor no cloud SDK, no Kafka). {@link #violations} lists what breaks a rule, one line
 * each, so that a test can show them all at once.
 */
final class ModuleRules {
    /** Which modules each module's main code may use; the order is a topological order (no cycles). */
    static final Map<String, Set<String>> ALLOWED = new LinkedHashMap<>();

    static {
        ALLOWED.put("shared-limiter", Set.of());
        ALLOWED.put("cloud-sim", Set.of());
        ALLOWED.put("engine", Set.of("shared-limiter"));
        ALLOWED.put("fleet-protocol", Set.of("engine", "shared-limiter"));
        ALLOWED.put("worker", Set.of("fleet-protocol", "engine", "shared-limiter"));
        // devkit ships nothing: no module may depend on it but in test scope (a test-scope POM dependency is not
        // checked here; a compile one, or main code using io.cloudg.fleet.local, breaks the rule)
        ALLOWED.put("devkit", Set.of("shared-limiter"));
        ALLOWED.put("coordinator", Set.of("fleet-protocol", "engine", "shared-limiter"));
        ALLOWED.put("mcp", Set.of("engine", "shared-limiter"));
        ALLOWED.put("cli", Set.of("worker", "coordinator", "mcp", "fleet-protocol", "engine", "shared-limiter", "cloud-sim"));
        ALLOWED.put("bench", Set.of("coordinator", "mcp", "devkit", "fleet-protocol", "engine", "shared-limiter", "cloud-sim"));
    }

    /** Libraries a module's main code must not import (by package prefix), and why. */
    static final Map<String, Map<String, String>> FORBIDDEN_LIBRARIES = Map.of(
            "shared-limiter", Map.of(
                    "software.amazon.", "the governor knows no cloud SDK (ErrorInspectors live in engine)",
                    "com.azure.", "the governor knows no cloud SDK (ErrorInspectors live in engine)",
                    "com.google.", "the governor knows no cloud SDK (ErrorInspectors live in engine)",
                    "io.grpc.", "the governor knows no cloud SDK (ErrorInspectors live in engine)",
                    "org.apache.kafka.", "the governor is not the fleet's transport"),
            "engine", Map.of(
                    "org.apache.kafka.", "the engine maps in one process; Kafka is the fleet's (fleet-protocol)"),
            "cloud-sim", Map.of());

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** A reference to one of our classes: {@code io.cloudg.<lower-case segments>.<Capitalised>}. */
    private static final Pattern OUR_CLASS = Pattern.compile("\\bio\\.cloudg((?:\\.[a-z_][a-z0-9_]*)*)\\.([A-Z]\\w*)");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    private static final Pattern POM_DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>io\\.cloudg</groupId>\\s*<artifactId>cloudg-([\\w-]+)</artifactId>(.*?)</dependency>",
            Pattern.DOTALL);

    private ModuleRules() {
    }

    /** Every broken rule in the tree at {@code root}, one line each; empty when the tree keeps them all. */
    static List<String> violations(Path root) {
        List<String> out = new ArrayList<>();
        Map<String, String> owner = new TreeMap<>();
        Map<String, List<Path>> sources = new LinkedHashMap<>();
        for (String module : ALLOWED.keySet()) {
            List<Path> files = javaFiles(root.resolve(module).resolve("src/main/java"));
            sources.put(module, files);
            for (Path f : files) {
                String pkg = packageOf(read(f));
                String before = owner.putIfAbsent(pkg, module);
                if (before != null && !before.equals(module)) {
                    out.add("package " + pkg + " is split between " + before + " and " + module);
                }
            }
        }
        for (Map.Entry<String, List<Path>> e : sources.entrySet()) {
            String module = e.getKey();
            for (Path f : e.getValue()) {
                String code = COMMENT.matcher(read(f)).replaceAll(" ");
                Set<String> seen = new TreeSet<>();
                Matcher m = OUR_CLASS.matcher(code);
                while (m.find()) {
                    String pkg = "io.cloudg" + m.group(1);
                    String used = owner.get(pkg);
                    if (used != null && !used.equals(module) && !ALLOWED.get(module).contains(used) && seen.add(pkg)) {
                        out.add(root.relativize(f) + ": " + module + " must not use " + pkg + " (module " + used + ")");
                    }
                }
                Matcher imp = IMPORT.matcher(code);
                while (imp.find()) {
                    String name = imp.group(1);
                    FORBIDDEN_LIBRARIES.getOrDefault(module, Map.of()).forEach((prefix, why) -> {
                        if (name.startsWith(prefix)) {
                            out.add(root.relativize(f) + ": " + module + " must not import " + name + " (" + why + ")");
                        }
                    });
                    if (module.equals("cloud-sim") && name.startsWith("io.cloudg.") && !name.startsWith("io.cloudg.sim.")) {
                        out.add(root.relativize(f) + ": cloud-sim stands apart but imports " + name);
                    }
                }
            }
            Path pom = root.resolve(module).resolve("pom.xml");
            if (Files.exists(pom)) {
                Matcher d = POM_DEPENDENCY.matcher(read(pom));
                while (d.find()) {
                    String dep = d.group(1);
                    boolean testOnly = d.group(2).contains("<scope>test</scope>");
                    if (!testOnly && !ALLOWED.get(module).contains(dep)) {
                        out.add(module + "/pom.xml: " + module + " must not depend on " + dep);
                    }
                }
            }
        }
        return out;
    }

    private static List<Path> javaFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String packageOf(String source) {
        Matcher m = PACKAGE.matcher(source);
        return m.find() ? m.group(1) : "";
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
