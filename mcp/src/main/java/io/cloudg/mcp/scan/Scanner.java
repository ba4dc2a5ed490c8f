package io.cloudg.mcp.scan;

import io.cloudg.inventory.Asset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Runs checks over assets in one pass (assets stream from disk; only findings are kept). */
public final class Scanner {
    private final List<Check> checks;

    public Scanner(List<Check> checks) {
        this.checks = List.copyOf(checks);
    }

    public static Scanner builtIn() {
        return new Scanner(Checks.all());
    }

    public ScanReport scan(Stream<Asset> assets) {
        Map<String, long[]> counts = new LinkedHashMap<>(); // evaluated, failed, not evaluated
        Map<String, Map<String, Long>> reasons = new LinkedHashMap<>();
        for (Check c : checks) {
            counts.put(c.id(), new long[3]);
            reasons.put(c.id(), new TreeMap<>());
        }
        List<Finding> findings = new ArrayList<>();
        assets.forEach(a -> {
            for (Check c : checks) {
                if (!c.assetType().equals(a.type())) {
                    continue;
                }
                Verdict v = c.evaluate(a);
                long[] n = counts.get(c.id());
                switch (v.outcome()) {
                    case PASS -> n[0]++;
                    case FAIL -> {
                        n[0]++;
                        n[1]++;
                        findings.add(Finding.of(c, a, v.detail()));
                    }
                    case UNKNOWN -> {
                        n[2]++;
                        reasons.get(c.id()).merge(v.detail(), 1L, Long::sum);
                    }
                }
            }
        });
        List<CheckSummary> summaries = new ArrayList<>();
        for (Check c : checks) {
            long[] n = counts.get(c.id());
            summaries.add(new CheckSummary(c.id(), c.title(), c.severity(), c.assetType(), n[0], n[1], n[2], reasons.get(c.id())));
        }
        return new ScanReport(summaries, findings);
    }
}
