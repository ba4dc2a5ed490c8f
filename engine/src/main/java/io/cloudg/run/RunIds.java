package io.cloudg.run;

import java.security.SecureRandom;
import io.cloudg.resilience.time.TimeSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Run ids that sort by start time and are short enough to type: {@code 20250101-120000-3fa9c2}. */
public final class RunIds {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();

    private RunIds() {
    }

    public static String next(TimeSource time) {
        byte[] b = new byte[3];
        RANDOM.nextBytes(b);
        return STAMP.format(time.instant()) + "-" + HexFormat.of().formatHex(b);
    }

    public static boolean valid(String runId) {
        return runId != null && runId.matches("[A-Za-z0-9._-]{1,100}");
    }
}
