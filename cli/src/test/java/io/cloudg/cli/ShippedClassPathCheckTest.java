package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build rule over the shipped class path (cli/src/build/ShippedClassPathCheck.java, run by the package phase)
 * on small made-up repositories: what it refuses, what it lets through, and that every refusal names the POM and the
 * artifact. The program is compiled from its source once, as the build runs it.
 */
class ShippedClassPathCheckTest {
    static final Path SOURCE = Path.of("src/build/ShippedClassPathCheck.java").toAbsolutePath();
    static Method run;
    static Pattern prerelease;

    @TempDir
    static Path classes;

    @TempDir
    Path dir;

    Path repo;
    Path lib;
    List<String> listed;
    String rules;

    @BeforeAll
    static void compile() throws Exception {
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), SOURCE.toString());
        assertThat(rc).as("%s compiles", SOURCE).isZero();
        ClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Class<?> check = loader.loadClass("ShippedClassPathCheck");
        run = check.getMethod("run", String[].class, PrintStream.class, PrintStream.class);
        java.lang.reflect.Field field = check.getDeclaredField("PRERELEASE");
        field.setAccessible(true);
        prerelease = (Pattern) field.get(null);
    }

    @BeforeEach
    void layout() throws Exception {
        repo = Files.createDirectories(dir.resolve("repo"));
        lib = Files.createDirectories(dir.resolve("lib"));
        listed = new ArrayList<>();
        rules = "";
    }

    record Outcome(int code, String out, String err) {
    }

    /** A third-party artifact in the repository (its POM, from {@code body}); shipped unless {@code shipped} is false. */
    void artifact(String g, String a, String v, boolean shipped, String body) throws Exception {
        Path d = Files.createDirectories(repo.resolve(g.replace('.', '/')).resolve(a).resolve(v));
        Files.writeString(d.resolve(a + "-" + v + ".pom"), """
                <project><modelVersion>4.0.0</modelVersion>
                <groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version>
                %s
                </project>""".formatted(g, a, v, body));
        if (shipped) {
            Path jar = Files.write(d.resolve(a + "-" + v + ".jar"), new byte[0]);
            Files.write(lib.resolve(a + "-" + v + ".jar"), new byte[0]);
            listed.add("   " + g + ":" + a + ":jar:" + v + ":compile:" + jar + " -- module " + a);
        }
    }

    void artifact(String g, String a, String v, String body) throws Exception {
        artifact(g, a, v, true, body);
    }

    static String deps(String... deps) {
        return "<dependencies>" + String.join("", deps) + "</dependencies>";
    }

    static String dep(String g, String a, String extra) {
        return "<dependency><groupId>" + g + "</groupId><artifactId>" + a + "</artifactId><version>1.0</version>" + extra
                + "</dependency>";
    }

    /** Our module's POM ({@code io.example:app:1.0}) with {@code body}, and the check's outcome. */
    Outcome check(String ourBody) throws Exception {
        Path pom = Files.createDirectories(dir.resolve("app")).resolve("pom.xml");
        Files.writeString(pom, """
                <project><modelVersion>4.0.0</modelVersion>
                <groupId>io.example</groupId><artifactId>app</artifactId><version>1.0</version>
                %s
                </project>""".formatted(ourBody));
        Path list = dir.resolve("list.txt");
        Files.writeString(list, "The following files have been resolved:\n" + String.join("\n", listed) + "\n");
        Path rulesFile = Files.writeString(dir.resolve("rules"), "# rules\n" + rules);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = (int) run.invoke(null, new String[] {"--list", list.toString(), "--lib", lib.toString(), "--pom",
                pom.toString(), "--local-repo", repo.toString(), "--rules", rulesFile.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aTestDeclarationOfWhatARuntimeDependencyNeedsFailsNamingThePomAndTheNeed() throws Exception {
        artifact("org.sdk", "sdk-json", "2.2", deps(dep("org.schema", "validator", "")));
        artifact("org.schema", "validator", "1.0", false, "");
        Outcome o = check(deps(dep("org.sdk", "sdk-json", ""), dep("org.schema", "validator", "<scope>test</scope>")));
        assertThat(o.code()).as(o.err()).isEqualTo(1);
        assertThat(o.err()).contains("missing: org.sdk:sdk-json:2.2 needs org.schema:validator at run time (scope compile)")
                .contains("app/pom.xml declares it with scope test")
                .contains("shadowed: " + dir.resolve("app/pom.xml") + " declares org.schema:validator with scope test")
                .contains("(app -> org.sdk:sdk-json)");
    }

    @Test
    void aModuleOfThisBuildThatShadowsIsNamedEvenWhenTheShippingModuleGetsTheJar() throws Exception {
        artifact("org.sdk", "sdk-json", "2.2", deps(dep("org.schema", "validator", "")));
        artifact("org.schema", "validator", "1.0", "");
        Path module = Files.createDirectories(dir.resolve("mcp/target"));
        Files.writeString(dir.resolve("mcp/pom.xml"), """
                <project><modelVersion>4.0.0</modelVersion>
                <groupId>io.example</groupId><artifactId>mcp</artifactId><version>1.0</version>
                %s
                </project>""".formatted(deps(dep("org.sdk", "sdk-json", ""), dep("org.schema", "validator", "<scope>test</scope>"))));
        Path jar = Files.write(module.resolve("mcp-1.0.jar"), new byte[0]);
        Files.write(lib.resolve("mcp-1.0.jar"), new byte[0]);
        listed.add("   io.example:mcp:jar:1.0:compile:" + jar);
        Outcome o = check(deps(dep("io.example", "mcp", "")));
        assertThat(o.code()).as(o.err()).isEqualTo(1);
        assertThat(o.err()).doesNotContain("missing:").contains("shadowed: " + dir.resolve("mcp/pom.xml")
                + " declares org.schema:validator with scope test, which takes it off mcp's runtime class path, but "
                + "org.sdk:sdk-json needs it at run time (mcp -> org.sdk:sdk-json)");
    }

    @Test
    void aTestDeclarationOfWhatOnlyTestsUseIsFine() throws Exception {
        artifact("org.sdk", "sdk-json", "2.2", deps(dep("org.other", "lib", "")));
        artifact("org.other", "lib", "1.0", "");
        Outcome o = check(deps(dep("org.sdk", "sdk-json", ""), dep("org.schema", "validator", "<scope>test</scope>"),
                dep("org.sdk", "sdk-json", "<type>test-jar</type><scope>test</scope>")));
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("2 jars and app: every compile/runtime dependency they declare is on the class path, no prerelease");
    }

    @Test
    void optionalProvidedTestAndNonJarDependenciesAreNotNeededAtRunTime() throws Exception {
        artifact("org.sdk", "sdk", "1.0", deps(dep("org.a", "optional", "<optional>true</optional>"),
                dep("org.a", "provided", "<scope>provided</scope>"), dep("org.a", "tested", "<scope>test</scope>"),
                dep("org.a", "aggregate", "<type>pom</type>")));
        assertThat(check(deps(dep("org.sdk", "sdk", ""))).code()).isZero();
    }

    @Test
    void aScopeManagedByTheDeclarersParentOrItsImportedBomCounts() throws Exception {
        artifact("org.sdk", "bom", "7", false, "<packaging>pom</packaging><dependencyManagement>"
                + deps(dep("org.sdk", "servlet-api", "<scope>provided</scope>")) + "</dependencyManagement>");
        artifact("org.sdk", "parent", "3", false, "<packaging>pom</packaging><properties><bom.version>7</bom.version>"
                + "</properties><dependencyManagement><dependencies><dependency><groupId>org.sdk</groupId>"
                + "<artifactId>bom</artifactId><version>${bom.version}</version><type>pom</type><scope>import</scope>"
                + "</dependency></dependencies></dependencyManagement>");
        artifact("org.sdk", "server", "3", "<parent><groupId>org.sdk</groupId><artifactId>parent</artifactId><version>3"
                + "</version></parent>" + deps("<dependency><groupId>${project.groupId}</groupId>"
                        + "<artifactId>servlet-api</artifactId></dependency>"));
        assertThat(check(deps(dep("org.sdk", "server", ""))).code()).isZero();

        layout();
        artifact("org.sdk", "server", "3", deps("<dependency><groupId>${project.groupId}</groupId>"
                + "<artifactId>servlet-api</artifactId></dependency>"));
        Outcome unmanaged = check(deps(dep("org.sdk", "server", "")));
        assertThat(unmanaged.err()).contains("missing: org.sdk:server:3 needs org.sdk:servlet-api at run time");
    }

    @Test
    void aRelocatedDependencyIsFoundUnderItsNewNameAndAnUnresolvablePropertyIsNotJudged() throws Exception {
        artifact("org.db", "connector-java", "1.0", false, "<distributionManagement><relocation><groupId>org.db.new"
                + "</groupId><artifactId>connector-j</artifactId></relocation></distributionManagement>");
        artifact("org.db.new", "connector-j", "1.0", "");
        artifact("org.app", "dao", "1.0", deps(dep("org.db", "connector-java", ""), dep("${os.group}", "native", "")));
        Outcome o = check(deps(dep("org.app", "dao", "")));
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("not judged: org.app:dao declares ${os.group}:native, a property this check cannot resolve");
    }

    @Test
    void aThirdPartyExclusionIsHonouredOursNeedsAnAbsentRuleWithItsReason() throws Exception {
        artifact("org.top", "top", "1.0", deps(dep("org.sdk", "sdk", "<exclusions><exclusion><groupId>org.log</groupId>"
                + "<artifactId>*</artifactId></exclusion></exclusions>")));
        artifact("org.sdk", "sdk", "1.0", deps(dep("org.log", "log4j", "")));
        assertThat(check(deps(dep("org.top", "top", ""))).code()).isZero();

        layout();
        artifact("org.sdk", "sdk", "1.0", deps(dep("org.log", "log4j", "")));
        String excluding = deps(dep("org.sdk", "sdk", "<exclusions><exclusion><groupId>org.log</groupId>"
                + "<artifactId>log4j</artifactId></exclusion></exclusions>"));
        Outcome ours = check(excluding);
        assertThat(ours.code()).isEqualTo(1);
        assertThat(ours.err()).contains("missing: org.sdk:sdk:1.0 needs org.log:log4j at run time (scope compile), but it is "
                + "not on the runtime class path: " + dir.resolve("app/pom.xml") + " excludes it");
        rules = "absent org.log:log4j -- we log through logback; the SDK's log4j calls go to the bridge\n";
        assertThat(check(excluding).code()).isZero();
    }

    @Test
    void aPrereleaseNeedsARuleForThatExactVersionAndAStaleRuleFails() throws Exception {
        artifact("io.reactor", "core", "3.9.0-RC1", "");
        Outcome refused = check(deps(dep("io.reactor", "core", "")));
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("prerelease: io.reactor:core:3.9.0-RC1 is on the runtime class path");

        rules = "prerelease io.reactor:core:3.9.0-RC1 -- nothing released yet has the fix we need\n";
        Outcome allowed = check(deps(dep("io.reactor", "core", "")));
        assertThat(allowed.code()).as(allowed.err()).isZero();
        assertThat(allowed.out()).contains("prereleases allowed by a rule: io.reactor:core:3.9.0-RC1");

        rules = "prerelease io.reactor:core:3.9.0-RC2 -- an older rule\n";
        Outcome stale = check(deps(dep("io.reactor", "core", "")));
        assertThat(stale.err()).contains("prerelease: io.reactor:core:3.9.0-RC1")
                .contains("stale rule: prerelease io.reactor:core:3.9.0-RC2 is not on the runtime class path");
    }

    @Test
    void releasedTogetherMeansOneVersion() throws Exception {
        artifact("net.jna", "jna", "5.13.0", "");
        artifact("net.jna", "jna-platform", "5.17.0", "");
        rules = "same-version net.jna:jna net.jna:jna-platform -- jna-platform is built against its own jna\n";
        Outcome o = check(deps(dep("net.jna", "jna", ""), dep("net.jna", "jna-platform", "")));
        assertThat(o.code()).isEqualTo(1);
        assertThat(o.err()).contains("same-version: [net.jna:jna, net.jna:jna-platform] must resolve to one version, "
                + "but resolved to {5.13.0=[net.jna:jna], 5.17.0=[net.jna:jna-platform]}");
    }

    @Test
    void aJarAnEarlierBuildLeftInLibIsRemoved() throws Exception {
        artifact("org.sdk", "sdk", "2.0", "");
        Files.write(lib.resolve("sdk-1.0.jar"), new byte[0]);
        Outcome o = check(deps(dep("org.sdk", "sdk", "")));
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("removed " + lib.resolve("sdk-1.0.jar") + ": left by an earlier build, no longer resolved");
        assertThat(lib.resolve("sdk-1.0.jar")).doesNotExist();
        assertThat(lib.resolve("sdk-2.0.jar")).exists();
    }

    @Test
    void aResolvedJarMissingFromLibIsAProblemAndThenNothingIsRemoved() throws Exception {
        artifact("org.sdk", "sdk", "2.0", "");
        artifact("org.sdk", "extra", "1.0", "");
        Files.delete(lib.resolve("extra-1.0.jar"));
        Files.write(lib.resolve("sdk-1.0.jar"), new byte[0]);
        Outcome o = check(deps(dep("org.sdk", "sdk", ""), dep("org.sdk", "extra", "")));
        assertThat(o.code()).isEqualTo(1);
        assertThat(o.err()).contains("missing: extra-1.0.jar was resolved but is not in " + lib);
        assertThat(lib.resolve("sdk-1.0.jar")).exists();
    }

    @Test
    void aRuleWithoutAReasonIsRefused() throws Exception {
        artifact("org.sdk", "sdk", "1.0", "");
        rules = "absent org.log:log4j\n";
        Outcome o = check(deps(dep("org.sdk", "sdk", "")));
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("rules:2: a rule must be 'absent G:A -- REASON'");
    }

    @Test
    void prereleaseVersionsAreToldFromReleases() {
        for (String v : List.of("3.9.0-RC1", "1.9.0-alpha", "2.0.0-beta.3", "1.0-M2", "5.0.0-milestone-1", "1.0-b2", "2.1.0-SNAPSHOT",
                "7.0.0.CR1", "1.0.0-rc.2", "21-ea", "0.9.0-preview")) {
            assertThat(prerelease.matcher(v).find()).as(v).isTrue();
        }
        for (String v : List.of("3.7.17", "33.6.0-jre", "4.1.132.Final", "2.0.75.Final", "1.5.6-10", "6.8.1.RELEASE",
                "9999.0-empty-to-avoid-conflict-with-guava", "1.5.38", "2.23", "4.2.2", "1.1.0")) {
            assertThat(prerelease.matcher(v).find()).as(v).isFalse();
        }
    }
}
