package io.cloudg.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Which JIT compilers the {@code cloudg} launcher starts a command's JVM with: C1 only for a one-shot command
 * (a map), the JVM's default (C1 then C2) for a fleet worker, which lives for map after map; and the user's
 * {@code CLOUDG_JAVA_OPTS} over either. Read from the JVM's own final flags, as the launcher starts it.
 */
class LauncherJitIT {
    private static final Pattern LEVEL = Pattern.compile("TieredStopAtLevel\\s+=\\s+(\\d)");

    static int stopLevel(String javaOpts, String... args) throws Exception {
        ClassDataArchiveIT.Result r = ClassDataArchiveIT.launch("-XX:+PrintFlagsFinal " + javaOpts, args);
        assertEquals(0, r.exit(), r.output());
        Matcher m = LEVEL.matcher(r.output());
        assertTrue(m.find(), "no TieredStopAtLevel in the JVM's flags: " + r.output());
        return Integer.parseInt(m.group(1));
    }

    @Test
    void aMapRunsOnC1AndAWorkerOnC1ThenC2() throws Exception {
        assertEquals(1, stopLevel("", "map", "--help"));
        assertEquals(1, stopLevel("", "--version"));
        assertEquals(4, stopLevel("", "worker", "--help"));
        assertEquals(4, stopLevel("", "--log-level", "warn", "--log-format=json", "worker", "--help"),
                "the command is found after the launcher-wide options and their values");
        assertEquals(1, stopLevel("", "--log-format", "json", "map", "--help"));
    }

    @Test
    void theUsersOptionsWin() throws Exception {
        assertEquals(4, stopLevel("-XX:TieredStopAtLevel=4", "map", "--help"));
        assertEquals(1, stopLevel("-XX:TieredStopAtLevel=1", "worker", "--help"));
    }
}
