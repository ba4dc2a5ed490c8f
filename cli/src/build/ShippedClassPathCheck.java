import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The build rule over what the cloudg launcher ships: {@code cli/target/cloudg-cli.jar} and {@code cli/target/lib}
 * (the launcher's class path, and what Jib packs). Run by the cli module's package phase as a single-file source
 * program (JDK only), after the dependency plugin copied {@code lib/} and listed the runtime class path. Fails the
 * build, one line per problem, when:
 * <ul>
 * <li><b>missing</b>: a shipped artifact's POM declares a compile or runtime, non-optional dependency that is not
 * on the class path: what a test-scope declaration in one of our POMs does to a runtime dependency's own
 * dependency (Maven's nearest declaration wins, scope included), or a scope managed down, or an exclusion. An
 * exclusion written in a third-party POM is that library's choice and is honoured; anything else absent on
 * purpose needs an {@code absent} rule with its reason;</li>
 * <li><b>shadowed</b>: one of our POMs (the cli's, or a module it ships) declares with scope test or provided an
 * artifact that a runtime dependency of that module needs at run time. This names the POM to fix even when
 * another path happens to bring the jar into lib/;</li>
 * <li><b>prerelease</b>: an alpha, beta, milestone, release-candidate or snapshot version of a third-party
 * artifact, unless a {@code prerelease} rule allows that exact version, with its reason;</li>
 * <li><b>same-version</b>: artifacts released together (a {@code same-version} rule) resolved at different versions;</li>
 * <li>a rule that no longer matches anything (rules stay honest), or a listed jar that is not in lib/.</li>
 * </ul>
 * Jars in lib/ that the build no longer resolves (left by an earlier build: copy-dependencies never deletes) would
 * still be on the launcher's class path ({@code lib/*}); they are removed, each with a line saying so.
 *
 * <p>The effective model of each POM is rebuilt from the files Maven itself just used (the local repository, and
 * the reactor's modules): parents, properties, dependency management with imported BOMs. Profiles are read when
 * active by default or by JDK version. Rules: {@code cli/src/build/shipped-classpath.rules} (its header says the
 * format). What remains on the runtime class path in alpha or beta, and why: {@code docs/dependencies.md}.
 *
 * <p>Usage: {@code java ShippedClassPathCheck.java --list LIST --lib DIR --pom POM --local-repo DIR --rules FILE},
 * LIST being {@code dependency:list -DincludeScope=runtime -DoutputAbsoluteArtifactFilename=true}'s output file
 * and POM the shipping module's own POM. Exit 0 when all is well, 1 with the problems, 2 on bad usage or input.
 */
public final class ShippedClassPathCheck {
    static final String TAG = "[shipped class path] ";
    /** An alpha, beta, milestone, release-candidate, preview, early-access or snapshot version (Maven's qualifiers). */
    static final Pattern PRERELEASE = Pattern.compile(
            "(?i)(?:^|[.\\-_])(?:alpha|beta|milestone|rc|cr|preview|ea|snapshot|[abm](?=\\d))(?:[.\\-_]?\\d+)*(?:[.\\-_]|$)");
    static final Pattern LIST_LINE = Pattern.compile(
            "^([^:\\s]+):([^:]+):([^:]+):(?:([^:]+):)?([^:]+):(compile|runtime|provided|system|test):(.+?)(?: -- module .*)?$");
    static final Set<String> ON_RUNTIME_PATH = Set.of("compile", "runtime");
    static final Set<String> CLASS_PATH_TYPES = Set.of("jar", "bundle", "maven-plugin", "ejb");

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** The check as main runs it; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        for (String required : List.of("--list", "--lib", "--pom", "--local-repo", "--rules")) {
            if (!a.containsKey(required)) {
                err.println(TAG + "usage: ShippedClassPathCheck --list LIST --lib DIR --pom POM --local-repo DIR "
                        + "--rules FILE (missing " + required + ")");
                return 2;
            }
        }
        try {
            Report report = new ShippedClassPathCheck(Path.of(a.get("--local-repo"))).check(Path.of(a.get("--list")),
                    Path.of(a.get("--lib")), Path.of(a.get("--pom")), Rules.load(Path.of(a.get("--rules"))));
            report.notes().forEach(n -> out.println(TAG + n));
            report.problems().forEach(p -> err.println(TAG + p));
            if (report.problems().isEmpty()) {
                return 0;
            }
            err.println(TAG + report.problems().size() + " problem(s) on the runtime class path the launcher ships "
                    + "(rules and reasons: " + a.get("--rules") + "; docs/dependencies.md)");
            return 1;
        } catch (BadInput e) {
            err.println(TAG + e.getMessage());
            return 2;
        }
    }

    // ------------------------------------------------------------------ the model

    /** groupId:artifactId, the identity on a class path (one version of each wins). */
    record Key(String groupId, String artifactId) implements Comparable<Key> {
        static Key of(String ga) {
            String[] p = ga.split(":");
            if (p.length != 2 || p[0].isBlank() || p[1].isBlank()) {
                throw new BadInput("expected groupId:artifactId, but was '" + ga + "'");
            }
            return new Key(p[0], p[1]);
        }

        boolean matches(Key pattern) {
            return (pattern.groupId.equals("*") || pattern.groupId.equals(groupId))
                    && (pattern.artifactId.equals("*") || pattern.artifactId.equals(artifactId));
        }

        @Override
        public int compareTo(Key o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            return groupId + ":" + artifactId;
        }
    }

    /** One artifact of the runtime class path, as the dependency plugin listed it. */
    record Shipped(Key key, String type, String classifier, String version, Path file) {
        /** The name copy-dependencies gives it in lib/. */
        String fileName() {
            String extension = CLASS_PATH_TYPES.contains(type) || type.equals("test-jar") ? "jar" : type;
            return key.artifactId + "-" + version + (classifier.isEmpty() ? "" : "-" + classifier) + "." + extension;
        }
    }

    /** A dependency as a POM's effective model declares it. */
    record Dependency(Key key, String version, String type, String classifier, String scope, boolean optional,
            List<Key> exclusions) {
        boolean onRuntimePath() {
            return ON_RUNTIME_PATH.contains(scope) && !optional && CLASS_PATH_TYPES.contains(type);
        }

        /** The artifact's main jar (no classifier), the file Maven's nearest declaration decides the scope of. */
        boolean mainJar() {
            return CLASS_PATH_TYPES.contains(type) && classifier.isEmpty();
        }
    }

    /** What the check needs of a POM: who it is, where it came from, its effective dependencies. */
    record Pom(Key key, String version, Path file, List<Dependency> dependencies) {
    }

    static final class BadInput extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadInput(String message) {
            super(message);
        }
    }

    record Report(List<String> problems, List<String> notes) {
    }

    // ------------------------------------------------------------------ the rules file

    /** The allow-lists, each entry with its reason. */
    record Rules(Map<Key, String> absent, Map<String, String> prerelease, List<List<Key>> sameVersion, Path file) {
        static final Pattern LINE = Pattern.compile("^(absent|prerelease|same-version)\\s+(.+?)\\s+--\\s+(\\S.*)$");

        static Rules load(Path file) throws IOException {
            Map<Key, String> absent = new LinkedHashMap<>();
            Map<String, String> prerelease = new LinkedHashMap<>();
            List<List<Key>> same = new ArrayList<>();
            int n = 0;
            for (String raw : Files.readAllLines(file)) {
                n++;
                String line = raw.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                Matcher m = LINE.matcher(line);
                if (!m.matches()) {
                    throw new BadInput(file + ":" + n + ": a rule must be 'absent G:A -- REASON', 'prerelease G:A:VERSION -- "
                            + "REASON' or 'same-version G:A G:A... -- REASON', but was '" + line + "'");
                }
                String what = m.group(2);
                try {
                    switch (m.group(1)) {
                        case "absent" -> absent.put(Key.of(what), m.group(3));
                        case "prerelease" -> {
                            if (what.split(":").length != 3) {
                                throw new BadInput("expected groupId:artifactId:version, but was '" + what + "'");
                            }
                            prerelease.put(what, m.group(3));
                        }
                        default -> {
                            List<Key> keys = Stream.of(what.split("\\s+")).map(Key::of).toList();
                            if (keys.size() < 2) {
                                throw new BadInput("same-version needs two artifacts or more, but was '" + what + "'");
                            }
                            same.add(keys);
                        }
                    }
                } catch (BadInput e) {
                    throw new BadInput(file + ":" + n + ": " + e.getMessage());
                }
            }
            return new Rules(absent, prerelease, same, file);
        }
    }

    // ------------------------------------------------------------------ the check

    private final Path localRepo;
    private final Poms poms;

    ShippedClassPathCheck(Path localRepo) {
        this.localRepo = localRepo;
        this.poms = new Poms(localRepo);
    }

    Report check(Path listFile, Path lib, Path selfPom, Rules rules) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<Shipped> listed = readList(listFile);
        Map<Key, Shipped> shipped = new LinkedHashMap<>();
        listed.forEach(s -> shipped.putIfAbsent(s.key(), s));

        // what lib/ holds is what was resolved: a missing file is a problem; once every resolved one is there,
        // the jars no longer resolved go (not before: a name this check got wrong must not cost a jar)
        Set<String> expected = new TreeSet<>();
        listed.forEach(s -> expected.add(s.fileName()));
        for (String name : expected) {
            if (!Files.isRegularFile(lib.resolve(name))) {
                problems.add("missing: " + name + " was resolved but is not in " + lib);
            }
        }
        if (problems.isEmpty()) {
            try (Stream<Path> files = Files.list(lib)) {
                for (Path f : files.sorted().toList()) {
                    if (f.getFileName().toString().endsWith(".jar") && !expected.contains(f.getFileName().toString())) {
                        Files.delete(f);
                        notes.add("removed " + f + ": left by an earlier build, no longer resolved");
                    }
                }
            }
        }

        // every shipped POM, and ours (the shipping module's own and the modules of ours it ships)
        Pom self = poms.load(selfPom);
        Map<Key, Pom> models = new LinkedHashMap<>();
        Map<Key, Pom> ours = new LinkedHashMap<>();
        ours.put(self.key(), self);
        for (Shipped s : shipped.values()) {
            Pom pom = poms.load(pomOf(s));
            models.put(s.key(), pom);
            if (s.key().groupId().equals(self.key().groupId())) {
                ours.put(s.key(), pom); // a module of this build
            }
        }

        // exclusions written in third-party POMs are honoured; our own need an absent rule with a reason
        Set<Key> thirdPartyExclusions = new LinkedHashSet<>();
        Map<Key, Path> ourExclusions = new LinkedHashMap<>();
        for (Pom p : models.values()) {
            for (Dependency d : p.dependencies()) {
                if (ON_RUNTIME_PATH.contains(d.scope())) {
                    if (ours.containsKey(p.key())) {
                        d.exclusions().forEach(x -> ourExclusions.putIfAbsent(x, p.file()));
                    } else {
                        thirdPartyExclusions.addAll(d.exclusions());
                    }
                }
            }
        }
        self.dependencies().forEach(d -> d.exclusions().forEach(x -> ourExclusions.putIfAbsent(x, self.file())));

        Set<Key> allowedAbsentUsed = new TreeSet<>();
        // missing: every compile/runtime non-optional dependency of every shipped artifact is shipped
        for (Map.Entry<Key, Pom> e : models.entrySet()) {
            for (Dependency d : e.getValue().dependencies()) {
                if (!d.onRuntimePath() || shipped.containsKey(d.key()) || shipped.containsKey(poms.relocated(d))) {
                    continue;
                }
                if (d.key().toString().contains("${")) {
                    notes.add("not judged: " + e.getKey() + " declares " + d.key() + ", a property this check cannot resolve");
                    continue;
                }
                if (rules.absent().containsKey(d.key())) {
                    allowedAbsentUsed.add(d.key());
                    continue;
                }
                if (thirdPartyExclusions.stream().anyMatch(d.key()::matches)) {
                    continue;
                }
                Key declarer = e.getKey();
                String version = shipped.get(declarer).version();
                String why = ourExclusions.entrySet().stream().filter(x -> d.key().matches(x.getKey())).findFirst()
                        .map(x -> x.getValue() + " excludes it")
                        .orElseGet(() -> whyNot(d.key(), self));
                problems.add("missing: " + declarer + ":" + version + " needs " + d.key() + " at run time (scope "
                        + d.scope() + "), but it is not on the runtime class path" + (why.isEmpty() ? "" : ": " + why));
            }
        }

        // shadowed: a test/provided declaration in one of our POMs of what its runtime dependencies need; the POMs
        // of this build's sources (a module installed earlier and taken from the repository is not fixed here)
        for (Pom our : ours.values()) {
            if (our != self && !our.file().getFileName().toString().equals("pom.xml")) {
                continue;
            }
            for (Dependency d : our.dependencies()) {
                if (ON_RUNTIME_PATH.contains(d.scope()) || d.scope().equals("system") || !d.mainJar()) {
                    continue; // a test-jar or another classifier is another file: it takes nothing off
                }
                List<Key> chain = neededBy(our, d.key(), models);
                if (!chain.isEmpty() && rules.absent().containsKey(d.key())) {
                    allowedAbsentUsed.add(d.key());
                } else if (!chain.isEmpty()) {
                    problems.add("shadowed: " + our.file() + " declares " + d.key() + " with scope " + d.scope()
                            + ", which takes it off " + our.key().artifactId() + "'s runtime class path, but "
                            + chain.get(chain.size() - 1) + " needs it at run time (" + path(our.key(), chain)
                            + "): declare it in scope runtime, or leave it to the dependency that brings it");
                }
            }
        }

        // prerelease versions of third-party artifacts
        Set<String> prereleaseUsed = new TreeSet<>();
        for (Shipped s : shipped.values()) {
            if (ours.containsKey(s.key()) || !PRERELEASE.matcher(s.version()).find()) {
                continue;
            }
            String gav = s.key() + ":" + s.version();
            if (rules.prerelease().containsKey(gav)) {
                prereleaseUsed.add(gav);
            } else {
                problems.add("prerelease: " + gav + " is on the runtime class path; pin a released version (or add "
                        + "'prerelease " + gav + " -- REASON' to " + rules.file().getFileName() + " and docs/dependencies.md)");
            }
        }

        // artifacts released together resolve at one version
        for (List<Key> family : rules.sameVersion()) {
            Map<String, List<Key>> byVersion = new LinkedHashMap<>();
            for (Key k : family) {
                if (shipped.containsKey(k)) {
                    byVersion.computeIfAbsent(shipped.get(k).version(), v -> new ArrayList<>()).add(k);
                }
            }
            if (byVersion.isEmpty()) {
                problems.add("stale rule: same-version " + family + " names nothing on the runtime class path");
            } else if (byVersion.size() > 1) {
                problems.add("same-version: " + family + " must resolve to one version, but resolved to " + byVersion
                        + " (pin them in the parent POM's dependencyManagement)");
            }
        }

        for (Key k : rules.absent().keySet()) {
            if (shipped.containsKey(k)) {
                problems.add("stale rule: absent " + k + ": it is on the runtime class path; remove the rule");
            } else if (!allowedAbsentUsed.contains(k)) {
                problems.add("stale rule: absent " + k + ": no shipped artifact needs it any more; remove the rule");
            }
        }
        for (String gav : rules.prerelease().keySet()) {
            if (!prereleaseUsed.contains(gav)) {
                problems.add("stale rule: prerelease " + gav + " is not on the runtime class path; remove the rule");
            }
        }
        if (problems.isEmpty()) {
            notes.add(listed.size() + " jars and " + self.key().artifactId() + ": every compile/runtime dependency "
                    + "they declare is on the class path" + (prereleaseUsed.isEmpty() ? ", no prerelease"
                    : "; prereleases allowed by a rule: " + String.join(", ", prereleaseUsed)));
        }
        return new Report(problems, notes);
    }

    /** Why {@code key} is absent, as far as the shipping module's POM says (its declarations win), or "". */
    static String whyNot(Key key, Pom self) {
        return self.dependencies().stream().filter(d -> d.key().equals(key) && d.mainJar())
                .map(d -> self.file() + " declares it with scope " + d.scope()).findFirst().orElse("");
    }

    /**
     * The chain of runtime dependencies from {@code from} to an artifact that needs {@code wanted} at run time
     * (breadth first over the shipped POMs), or empty when none does.
     */
    static List<Key> neededBy(Pom from, Key wanted, Map<Key, Pom> models) {
        Map<Key, Key> parent = new HashMap<>();
        Deque<Pom> queue = new ArrayDeque<>(List.of(from));
        Set<Key> seen = new LinkedHashSet<>(List.of(from.key()));
        while (!queue.isEmpty()) {
            Pom p = queue.poll();
            for (Dependency d : p.dependencies()) {
                if (!d.onRuntimePath()) {
                    continue;
                }
                if (d.key().equals(wanted) && d.mainJar() && p != from) {
                    List<Key> chain = new ArrayList<>();
                    for (Key k = p.key(); k != null && !k.equals(from.key()); k = parent.get(k)) {
                        chain.add(0, k);
                    }
                    return chain;
                }
                if (d.exclusions().stream().anyMatch(wanted::matches)) {
                    continue; // this path excludes it
                }
                if (seen.add(d.key()) && models.containsKey(d.key())) {
                    parent.put(d.key(), p.key());
                    queue.add(models.get(d.key()));
                }
            }
        }
        return List.of();
    }

    static String path(Key from, List<Key> chain) {
        StringBuilder b = new StringBuilder(from.artifactId());
        chain.forEach(k -> b.append(" -> ").append(k));
        return b.toString();
    }

    /** The artifacts listed (one per classifier), each artifact at one version. */
    static List<Shipped> readList(Path listFile) throws IOException {
        List<Shipped> listed = new ArrayList<>();
        Map<Key, Shipped> shipped = new LinkedHashMap<>();
        for (String raw : Files.readAllLines(listFile)) {
            String line = raw.strip();
            Matcher m = LIST_LINE.matcher(line);
            if (!m.matches()) {
                continue; // the header, "none", blank lines
            }
            if (!ON_RUNTIME_PATH.contains(m.group(6))) {
                throw new BadInput(listFile + ": " + line + " is not a runtime artifact (list with -DincludeScope=runtime)");
            }
            Key key = new Key(m.group(1), m.group(2));
            Shipped s = new Shipped(key, m.group(3), m.group(4) == null ? "" : m.group(4), m.group(5), Path.of(m.group(7)));
            Shipped other = shipped.putIfAbsent(key, s);
            if (other != null && !other.version().equals(s.version())) {
                throw new BadInput(listFile + ": " + key + " listed at " + other.version() + " and " + s.version());
            }
            listed.add(s);
        }
        if (listed.isEmpty() && Files.readAllLines(listFile).stream().noneMatch(l -> l.strip().equals("none"))) {
            throw new BadInput(listFile + ": no artifact could be read (is it dependency:list's output?)");
        }
        return listed;
    }

    /** The POM of a listed artifact: a module's pom.xml for a reactor artifact, else the local repository's. */
    Path pomOf(Shipped s) {
        for (Path dir = s.file().getParent(); dir != null; dir = dir.getParent()) {
            if (dir.getFileName() != null && dir.getFileName().toString().equals("target")) {
                Path module = dir.getParent().resolve("pom.xml");
                if (Files.isRegularFile(module)) {
                    return module;
                }
            }
        }
        Path beside = poms.repoPom(s.key(), s.version());
        if (!Files.isRegularFile(beside)) {
            throw new BadInput("no POM for " + s.key() + ":" + s.version() + " at " + beside);
        }
        return beside;
    }

    // ------------------------------------------------------------------ effective POMs

    /** Reads POM files into effective models: parents, properties, dependency management with imports, profiles. */
    static final class Poms {
        private final Path localRepo;
        private final Map<Path, Raw> raw = new HashMap<>();
        private final Map<Path, Effective> effective = new HashMap<>();

        Poms(Path localRepo) {
            this.localRepo = localRepo;
        }

        Path repoPom(Key key, String version) {
            return localRepo.resolve(key.groupId().replace('.', '/')).resolve(key.artifactId()).resolve(version)
                    .resolve(key.artifactId() + "-" + version + ".pom");
        }

        Pom load(Path file) {
            Effective e = effective(file);
            return new Pom(new Key(e.groupId, e.artifactId), e.version, file, e.dependencies);
        }

        /** A POM as written, its active profiles folded in. */
        record Raw(Element project, Map<String, String> properties, List<Element> dependencies, List<Element> managed,
                String groupId, String artifactId, String version, Element parent) {
        }

        /** A POM after inheritance and interpolation. */
        record Effective(String groupId, String artifactId, String version, Map<String, String> properties,
                Map<String, Dependency> managed, Map<String, String> managedVersions, List<Dependency> dependencies) {
        }

        Raw raw(Path file) {
            return raw.computeIfAbsent(file.toAbsolutePath().normalize(), f -> {
                Element project = parse(f).getDocumentElement();
                Element parent = child(project, "parent");
                Map<String, String> props = new LinkedHashMap<>();
                List<Element> deps = new ArrayList<>(children(child(project, "dependencies"), "dependency"));
                List<Element> managed = new ArrayList<>(children(child(child(project, "dependencyManagement"), "dependencies"), "dependency"));
                readProperties(child(project, "properties"), props);
                for (Element profile : children(child(project, "profiles"), "profile")) {
                    if (active(profile)) {
                        readProperties(child(profile, "properties"), props);
                        deps.addAll(children(child(profile, "dependencies"), "dependency"));
                        managed.addAll(children(child(child(profile, "dependencyManagement"), "dependencies"), "dependency"));
                    }
                }
                String groupId = text(project, "groupId");
                String version = text(project, "version");
                if (parent != null) {
                    groupId = groupId != null ? groupId : text(parent, "groupId");
                    version = version != null ? version : text(parent, "version");
                }
                return new Raw(project, props, deps, managed, groupId, text(project, "artifactId"), version, parent);
            });
        }

        /** Active by default, or by a JDK range that holds this JVM's version; others are left out. */
        static boolean active(Element profile) {
            Element activation = child(profile, "activation");
            if (activation == null) {
                return false;
            }
            if ("true".equals(text(activation, "activeByDefault"))) {
                return true;
            }
            String jdk = text(activation, "jdk");
            return jdk != null && jdkMatches(jdk.strip(), Runtime.version().feature());
        }

        static boolean jdkMatches(String spec, int feature) {
            boolean negate = spec.startsWith("!");
            String s = negate ? spec.substring(1) : spec;
            boolean match;
            if (s.startsWith("[") || s.startsWith("(")) {
                String[] bounds = s.substring(1, s.length() - 1).split(",", -1);
                int lo = bounds[0].isBlank() ? Integer.MIN_VALUE : feature(bounds[0]);
                int hi = bounds.length < 2 || bounds[1].isBlank() ? Integer.MAX_VALUE : feature(bounds[1]);
                boolean loOk = s.startsWith("[") ? feature >= lo : feature > lo;
                boolean hiOk = s.endsWith("]") ? feature <= hi : feature < hi;
                match = loOk && hiOk;
            } else {
                match = feature(s) == feature;
            }
            return negate != match;
        }

        static int feature(String v) {
            String t = v.strip();
            if (t.startsWith("1.")) {
                t = t.substring(2);
            }
            Matcher m = Pattern.compile("^(\\d+)").matcher(t);
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        }

        Effective effective(Path file) {
            Path key = file.toAbsolutePath().normalize();
            Effective done = effective.get(key);
            if (done != null) {
                return done;
            }
            // the chain child -> parents, as Maven finds parents: relativePath first, then the repository
            List<Raw> chain = new ArrayList<>();
            Path at = key;
            for (int depth = 0; at != null; depth++) {
                if (depth > 30) {
                    throw new BadInput(file + ": a parent chain of more than 30 POMs");
                }
                Raw r = raw(at);
                chain.add(r);
                at = r.parent() == null ? null : parentFile(at, r.parent());
            }
            Map<String, String> props = new HashMap<>();
            for (int i = chain.size() - 1; i >= 0; i--) {
                props.putAll(chain.get(i).properties());
            }
            Raw self = chain.get(0);
            props.put("project.groupId", self.groupId());
            props.put("project.artifactId", self.artifactId());
            props.put("project.version", self.version());
            props.put("pom.groupId", self.groupId());
            props.put("pom.version", self.version());
            props.put("version", self.version());
            props.put("groupId", self.groupId());
            if (self.parent() != null) {
                props.put("project.parent.groupId", text(self.parent(), "groupId"));
                props.put("project.parent.version", text(self.parent(), "version"));
                props.put("parent.version", text(self.parent(), "version"));
            }
            props.put("project.basedir", key.getParent().toString());
            props.put("basedir", key.getParent().toString());
            Interpolator in = new Interpolator(props);

            // dependency management: declared (child over parent), then imported BOMs in order; the first wins
            Map<String, Dependency> managed = new LinkedHashMap<>();
            Map<String, String> managedVersions = new LinkedHashMap<>();
            List<Element[]> imports = new ArrayList<>();
            for (Raw r : chain) {
                for (Element d : r.managed()) {
                    String scope = in.apply(text(d, "scope"));
                    if ("import".equals(scope)) {
                        imports.add(new Element[] {d});
                        continue;
                    }
                    Dependency dep = dependency(d, in, Map.of(), Map.of(), "");
                    managed.putIfAbsent(id(dep), dep);
                    managedVersions.putIfAbsent(id(dep), in.apply(text(d, "version")));
                }
            }
            for (Element[] imp : imports) {
                Element d = imp[0];
                Key bom = new Key(in.apply(text(d, "groupId")), in.apply(text(d, "artifactId")));
                Path bomFile = repoPom(bom, in.apply(text(d, "version")));
                if (!Files.isRegularFile(bomFile)) {
                    throw new BadInput(file + " imports " + bom + ":" + in.apply(text(d, "version"))
                            + ", whose POM is not at " + bomFile);
                }
                Effective b = effective(bomFile);
                b.managed().forEach(managed::putIfAbsent);
                b.managedVersions().forEach(managedVersions::putIfAbsent);
            }

            // dependencies: inherited from parents, the child's declaration of the same one wins
            Map<String, Dependency> deps = new LinkedHashMap<>();
            for (Raw r : chain) {
                for (Element d : r.dependencies()) {
                    Dependency dep = dependency(d, in, managed, managedVersions, "compile");
                    deps.putIfAbsent(id(dep), dep);
                }
            }
            Effective e = new Effective(in.apply(self.groupId()), in.apply(self.artifactId()), in.apply(self.version()),
                    props, managed, managedVersions, List.copyOf(deps.values()));
            effective.put(key, e);
            return e;
        }

        Path parentFile(Path child, Element parent) {
            String g = text(parent, "groupId");
            String a = text(parent, "artifactId");
            String v = text(parent, "version");
            Element rel = child(parent, "relativePath");
            String relativePath = rel == null ? "../pom.xml" : rel.getTextContent().strip();
            if (!relativePath.isEmpty()) {
                Path candidate = child.getParent().resolve(relativePath).normalize();
                if (Files.isDirectory(candidate)) {
                    candidate = candidate.resolve("pom.xml");
                }
                if (Files.isRegularFile(candidate)) {
                    Raw r = raw(candidate);
                    if (a.equals(r.artifactId()) && g.equals(r.groupId()) && v.equals(r.version())) {
                        return candidate;
                    }
                }
            }
            Path inRepo = repoPom(new Key(g, a), v);
            if (!Files.isRegularFile(inRepo)) {
                throw new BadInput(child + ": its parent " + g + ":" + a + ":" + v + " is neither at " + relativePath
                        + " nor at " + inRepo);
            }
            return inRepo;
        }

        /** Where a dependency's POM relocates it ({@code distributionManagement/relocation}), else its own key. */
        Key relocated(Dependency d) {
            if (d.version() == null || d.version().contains("${")) {
                return d.key();
            }
            Path pom = repoPom(d.key(), d.version());
            if (!Files.isRegularFile(pom)) {
                return d.key();
            }
            Element relocation = child(child(raw(pom).project(), "distributionManagement"), "relocation");
            if (relocation == null) {
                return d.key();
            }
            return new Key(Objects.requireNonNullElse(text(relocation, "groupId"), d.key().groupId()),
                    Objects.requireNonNullElse(text(relocation, "artifactId"), d.key().artifactId()));
        }

        static String id(Dependency d) {
            return d.key() + ":" + d.type() + ":" + d.classifier();
        }

        static Dependency dependency(Element d, Interpolator in, Map<String, Dependency> managed,
                Map<String, String> managedVersions, String defaultScope) {
            Key key = new Key(in.apply(text(d, "groupId")), in.apply(text(d, "artifactId")));
            String type = Objects.requireNonNullElse(in.apply(text(d, "type")), "jar");
            String classifier = Objects.requireNonNullElse(in.apply(text(d, "classifier")), "");
            Dependency m = managed.get(key + ":" + type + ":" + classifier);
            String scope = in.apply(text(d, "scope"));
            if (scope == null) {
                scope = m != null && !m.scope().isEmpty() ? m.scope() : defaultScope;
            }
            String version = in.apply(text(d, "version"));
            if (version == null) {
                version = managedVersions.get(key + ":" + type + ":" + classifier);
            }
            boolean optional = "true".equals(in.apply(text(d, "optional")));
            List<Key> exclusions = new ArrayList<>();
            for (Element x : children(child(d, "exclusions"), "exclusion")) {
                exclusions.add(new Key(Objects.requireNonNullElse(in.apply(text(x, "groupId")), "*"),
                        Objects.requireNonNullElse(in.apply(text(x, "artifactId")), "*")));
            }
            if (m != null) {
                exclusions.addAll(m.exclusions());
            }
            return new Dependency(key, version, type, classifier, scope, optional, List.copyOf(exclusions));
        }

        static void readProperties(Element properties, Map<String, String> into) {
            if (properties == null) {
                return;
            }
            for (Node n = properties.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e) {
                    into.put(e.getTagName(), e.getTextContent().strip());
                }
            }
        }

        static Document parse(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
                f.setNamespaceAware(false);
                f.setExpandEntityReferences(false);
                f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
                return f.newDocumentBuilder().parse(in);
            } catch (Exception e) {
                throw new BadInput("cannot read the POM " + file + ": " + e.getMessage());
            }
        }

        static Element child(Element parent, String name) {
            if (parent == null) {
                return null;
            }
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals(name)) {
                    return e;
                }
            }
            return null;
        }

        static List<Element> children(Element parent, String name) {
            List<Element> out = new ArrayList<>();
            if (parent != null) {
                for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element e && e.getTagName().equals(name)) {
                        out.add(e);
                    }
                }
            }
            return out;
        }

        static String text(Element parent, String name) {
            Element e = child(parent, name);
            return e == null ? null : e.getTextContent().strip();
        }
    }

    /** ${name} from a POM's properties (recursively), as Maven's interpolation; an unknown name stays as written. */
    record Interpolator(Map<String, String> properties) {
        static final Pattern REF = Pattern.compile("\\$\\{([^}]+)}");

        String apply(String s) {
            if (s == null) {
                return null;
            }
            String out = s;
            for (int i = 0; i < 10 && out.contains("${"); i++) {
                Matcher m = REF.matcher(out);
                StringBuilder b = new StringBuilder();
                while (m.find()) {
                    String v = properties.get(m.group(1));
                    if (v == null && m.group(1).startsWith("env.")) {
                        v = System.getenv(m.group(1).substring(4));
                    }
                    m.appendReplacement(b, Matcher.quoteReplacement(v != null ? v : m.group()));
                }
                m.appendTail(b);
                if (b.toString().equals(out)) {
                    break;
                }
                out = b.toString();
            }
            return out;
        }
    }
}
