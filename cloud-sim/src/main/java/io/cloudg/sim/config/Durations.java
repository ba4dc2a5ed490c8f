package io.cloudg.sim.config;

import java.time.Duration;

/** Reads durations written as {@code 250ms}, {@code 10s}, {@code 2m} or a plain number of seconds. */
final class Durations {
    private Durations() {
    }

    static Duration read(SpecNode n, Duration dflt) {
        if (!n.present()) {
            return dflt;
        }
        String s = n.matching("(\\d+(\\.\\d+)?)(ms|s|m)?", "a duration such as 250ms, 10s or 2m", null);
        double v;
        String unit;
        if (s.endsWith("ms")) {
            v = Double.parseDouble(s.substring(0, s.length() - 2));
            unit = "ms";
        } else if (s.endsWith("s")) {
            v = Double.parseDouble(s.substring(0, s.length() - 1));
            unit = "s";
        } else if (s.endsWith("m")) {
            v = Double.parseDouble(s.substring(0, s.length() - 1));
            unit = "m";
        } else {
            v = Double.parseDouble(s);
            unit = "s";
        }
        double nanos = switch (unit) {
            case "ms" -> v * 1e6;
            case "m" -> v * 60e9;
            default -> v * 1e9;
        };
        return Duration.ofNanos((long) nanos);
    }
}
