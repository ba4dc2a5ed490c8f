package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Fails loudly when a Redisson upgrade touches the internals the Redis backend uses ({@link RedissonInternals}
 * says which and why), when the backend starts using one that is not listed, and when any class of the governor
 * but {@link RedissonInternals} (the fence) references one.
 */
class RedissonInternalsTest {
    private static final Pattern REDISSON_CLASS = Pattern.compile("org/redisson/[A-Za-z0-9_/$]+");

    @Test
    void theRedissonOnTheClasspathIsTheVerifiedOne() {
        assertThat(RedissonInternals.runningVersion())
                .as("Redisson was upgraded: the Redis backend uses its internals %s. Run the Redis contract suites "
                        + "(standalone, Sentinel, Cluster, system server) and RedisMatchesMemoryTest against the new "
                        + "version, check those members still behave as RedissonInternals expects, then set "
                        + "RedissonInternals.VERIFIED_VERSION", RedissonInternals.USED)
                .isEqualTo(RedissonInternals.VERIFIED_VERSION);
    }

    @Test
    void everyInternalMemberUsedIsThere() {
        assertThat(RedissonInternals.missing(RedissonInternals.USED)).isEmpty();
        RedissonInternals.check(RedissonInternals.USED);
    }

    @Test
    void aRedissonWithoutAMemberIsRefusedNamingItAndBothVersions() {
        RedissonInternals.Use gone = RedissonInternals.Use.of("org.redisson.Redisson", "getCommandExecutorGone");
        RedissonInternals.Use noClass = RedissonInternals.Use.of("org.redisson.connection.GoneManager", "calcSlot", "[B");
        assertThat(RedissonInternals.missing(List.of(gone, noClass))).containsExactly(gone, noClass);
        assertThatThrownBy(() -> RedissonInternals.check(List.of(gone)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("org.redisson.Redisson#getCommandExecutorGone()")
                .hasMessageContaining("verified with Redisson " + RedissonInternals.VERIFIED_VERSION)
                .hasMessageContaining("this Redisson (" + RedissonInternals.runningVersion() + ")");
    }

    /**
     * Reads the constant pool of every class of the backend's package: each Redisson class it names must be
     * public API or one of {@link RedissonInternals#USED}'s classes or parameter types.
     */
    @Test
    void everyNonApiRedissonClassThePackageReferencesIsListed() throws Exception {
        Set<String> allowed = new TreeSet<>();
        for (RedissonInternals.Use u : RedissonInternals.USED) {
            allowed.add(u.type().replace('.', '/'));
            for (String p : u.parameters()) {
                allowed.add(p.replace('.', '/'));
            }
        }
        Path dir = packageDirectory();
        Set<String> referenced = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    for (String s : utf8Constants(in)) {
                        Matcher m = REDISSON_CLASS.matcher(s);
                        while (m.find()) {
                            referenced.add(m.group());
                        }
                    }
                }
            }
        }
        assertThat(referenced).as("the package references Redisson at all (the scan works)")
                .contains("org/redisson/api/RedissonClient", "org/redisson/connection/ConnectionManager");
        Set<String> unlisted = new TreeSet<>();
        for (String c : referenced) {
            if (!publicApi(c) && !allowed.contains(c.replaceAll("\\$.*", ""))) {
                unlisted.add(c);
            }
        }
        assertThat(unlisted).as("Redisson internals used but not listed in RedissonInternals.USED").isEmpty();
    }

    /**
     * The fence: reads the constant pool (class names, member descriptors, signatures) of every class of the
     * governor (this module's main classes); no class but {@link RedissonInternals} and its nested classes may
     * name a Redisson class outside its public API. The fence's own classes show that the scan sees internals.
     */
    @Test
    void noClassButRedissonInternalsReferencesRedissonInternals() throws Exception {
        Path root = codeRoot();
        Map<String, Set<String>> outside = new TreeMap<>();
        Set<String> fence = new TreeSet<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = root.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                Set<String> internals = internalsReferenced(f);
                scanned++;
                if (fence(name)) {
                    fence.addAll(internals);
                } else if (!internals.isEmpty()) {
                    outside.put(name, internals);
                }
            }
        }
        assertThat(scanned).as("the governor's classes were scanned").isGreaterThan(100);
        assertThat(fence).as("the scan sees the internals the fence uses")
                .contains("org/redisson/client/RedisConnection", "org/redisson/connection/MasterSlaveEntry",
                        "org/redisson/client/protocol/CommandData", "org/redisson/client/RedisClientConfig");
        assertThat(outside).as("classes other than RedissonInternals that reference Redisson internals (go through"
                + " RedissonInternals instead)").isEmpty();
    }

    /** Whether {@code classFile} (a path under the class root) is part of the fence. */
    static boolean fence(String classFile) {
        String fence = RedissonInternals.class.getName().replace('.', '/');
        return classFile.equals(fence + ".class") || classFile.startsWith(fence + "$");
    }

    /** The Redisson classes outside its public API that a class file names. */
    static Set<String> internalsReferenced(Path classFile) throws IOException {
        Set<String> out = new TreeSet<>();
        try (InputStream in = Files.newInputStream(classFile)) {
            for (String s : utf8Constants(in)) {
                Matcher m = REDISSON_CLASS.matcher(s);
                while (m.find()) {
                    if (!publicApi(m.group())) {
                        out.add(m.group());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void theFenceRuleTellsTheFenceFromTheRestAndInternalsFromTheApi() throws Exception {
        assertThat(fence("io/cloudg/resilience/redis/RedissonInternals.class")).isTrue();
        assertThat(fence("io/cloudg/resilience/redis/RedissonInternals$Write.class")).isTrue();
        assertThat(fence("io/cloudg/resilience/redis/ScriptRunner.class")).isFalse();
        assertThat(fence("io/cloudg/resilience/redis/RedissonInternalsTest.class")).isFalse();
        Path root = codeRoot();
        assertThat(internalsReferenced(root.resolve("io/cloudg/resilience/redis/RedissonInternals$Write.class")))
                .contains("org/redisson/client/protocol/CommandData", "org/redisson/client/RedisConnection");
        assertThat(internalsReferenced(root.resolve("io/cloudg/resilience/redis/ScriptRunner.class")))
                .as("ScriptRunner names exceptions, codecs and RedissonClient only").isEmpty();
        assertThat(publicApi("org/redisson/client/RedisRedirectException")).isTrue();
        assertThat(publicApi("org/redisson/client/codec/StringCodec")).isTrue();
        assertThat(publicApi("org/redisson/client/RedisConnection")).isFalse();
        assertThat(publicApi("org/redisson/command/CommandAsyncExecutor")).isFalse();
    }

    private static boolean publicApi(String c) {
        return c.startsWith("org/redisson/api/") || c.startsWith("org/redisson/config/")
                || c.startsWith("org/redisson/client/codec/") || c.equals("org/redisson/Redisson")
                || (c.endsWith("Exception") && (c.startsWith("org/redisson/client/") || c.lastIndexOf('/') == 12));
    }

    private static Path packageDirectory() throws URISyntaxException {
        return codeRoot().resolve(RedisStateStore.class.getPackageName().replace('.', '/'));
    }

    /** Where this module's main classes are (target/classes). */
    private static Path codeRoot() throws URISyntaxException {
        return Path.of(RedisStateStore.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** The CONSTANT_Utf8 entries of a class file (class names, descriptors, signatures, strings). */
    private static List<String> utf8Constants(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        List<String> out = new java.util.ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> out.add(in.readUTF());
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                case 5, 6 -> {
                    in.skipBytes(8);
                    i++;
                }
                case 7, 8, 16, 19, 20 -> in.skipBytes(2);
                case 15 -> in.skipBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return out;
    }
}
