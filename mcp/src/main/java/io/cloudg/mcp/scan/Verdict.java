package io.cloudg.mcp.scan;

/**
 * One check's answer for one asset.
 *
 * @param outcome pass, fail or unknown
 * @param detail what failed (fail), or why the check could not decide (unknown); null for pass
 */
public record Verdict(Outcome outcome, String detail) {
    public enum Outcome { PASS, FAIL, UNKNOWN }

    public static final Verdict PASS = new Verdict(Outcome.PASS, null);

    public static Verdict fail(String detail) {
        return new Verdict(Outcome.FAIL, detail);
    }

    public static Verdict unknown(String why) {
        return new Verdict(Outcome.UNKNOWN, why);
    }
}
