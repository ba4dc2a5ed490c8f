package io.cloudg.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JVM the {@code cloudg} launcher starts each command on: C1 then a lighter C2 for the commands that map
 * ({@code map}, {@code mcp}) and for a fleet worker; C1 only for a fleet's coordinator, a map of the demo
 * estate and the short-lived rest; the serial collector for every command but {@code worker}; and the user's
 * {@code CLOUDG_JAVA_OPTS} over any of it. Read from the JVM's own final flags ({@code -XX:+PrintFlagsFinal}), as the launcher starts it.
 *
 * <p>{@code -version} after the user's options makes the JVM print its flags and version and exit before it loads the
 * CLI: the command line is the launcher's, whole, but no command runs (a start is a tenth of a second of CPU instead
 * of one or two seconds, eighteen times).
 */
class LauncherJitIT {
    /** The JVM's final flags of a command the launcher started with {@code javaOpts}. */
    record Flags(String output) {
        String value(String flag) {
            Matcher m = line(flag);
            return m.group(1);
        }

        /** Whether the flag was set on the command line (the launcher's or the user's), not by the JVM. */
        boolean fromCommandLine(String flag) {
            return line(flag).group(2).contains("command line");
        }

        private Matcher line(String flag) {
            Matcher m = Pattern.compile("\\s" + flag + "\\s+=\\s+(\\S+)\\s+(\\{[^\\n]*)").matcher(output);
            assertTrue(m.find(), "no " + flag + " in the JVM's flags: " + output);
            return m;
        }

        int stopLevel() {
            return Integer.parseInt(value("TieredStopAtLevel"));
        }

        boolean serialGc() {
            return Boolean.parseBoolean(value("UseSerialGC"));
        }
    }

    static Flags flags(String javaOpts, String... args) throws Exception {
        ClassDataArchiveIT.Result r = ClassDataArchiveIT.launch("-XX:+PrintFlagsFinal " + javaOpts + " -version", args);
        assertTrue(r.output().contains("Runtime Environment"), "the JVM's -version: " + r.output());
        assertEquals(0, r.exit(), r.output());
        return new Flags(r.output());
    }

    @Test
    void commandsThatMapRunOnALighterC2AndTheRestOnC1() throws Exception {
        for (String[] mapping : new String[][] {{"map", "--help"}, {"mcp", "--help"}, {"worker", "--help"}}) {
            Flags f = flags("", mapping);
            assertEquals(4, f.stopLevel(), mapping[0]);
            assertEquals("4", f.value("MaxInlineLevel"), mapping[0]);
            assertEquals("false", f.value("DoEscapeAnalysis"), mapping[0]);
        }
        assertEquals(1, flags("", "map", "--distributed", "--help").stopLevel(), "a fleet's coordinator");
        assertEquals(1, flags("", "--log-level", "warn", "map", "--run-id=r1", "--help").stopLevel());
        assertEquals(1, flags("", "map", "--resume", "r1", "--help").stopLevel());
        assertEquals(1, flags("", "map", "--sim", "--help").stopLevel(), "the demo estate is small");
        assertEquals(4, flags("", "map", "--sim", "--sim-estate", "big.yaml", "--help").stopLevel());
        assertEquals(1, flags("", "--version").stopLevel());
        assertEquals(1, flags("", "diff", "--help").stopLevel());
        assertEquals(4, flags("", "--log-level", "warn", "--log-format=json", "worker", "--help").stopLevel(),
                "the command is found after the launcher-wide options and their values");
        assertEquals(1, flags("", "--log-format", "json", "--version").stopLevel());
    }

    @Test
    void everyCommandButTheWorkerRunsOnTheSerialCollector() throws Exception {
        assertTrue(flags("", "map", "--help").serialGc());
        assertTrue(flags("", "--version").serialGc());
        Flags worker = flags("", "worker", "--help");
        assertTrue(!worker.fromCommandLine("UseSerialGC") && !worker.fromCommandLine("UseG1GC"),
                "a worker keeps the JVM's own choice of collector: " + worker.value("UseSerialGC"));
    }

    @Test
    void theUsersOptionsWin() throws Exception {
        assertEquals(1, flags("-XX:TieredStopAtLevel=1", "map", "--help").stopLevel());
        assertEquals(1, flags("-XX:TieredStopAtLevel=1", "worker", "--help").stopLevel());
        assertEquals(4, flags("-XX:TieredStopAtLevel=4", "--version").stopLevel());
        Flags parallel = flags("-XX:+UseParallelGC", "map", "--help");
        assertEquals("true", parallel.value("UseParallelGC"), "the user's collector, and the JVM starts with it");
        assertTrue(!parallel.serialGc());
        assertEquals("true", flags("-XX:+UseG1GC", "--version").value("UseG1GC"));
    }
}
