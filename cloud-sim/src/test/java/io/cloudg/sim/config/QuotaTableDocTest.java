package io.cloudg.sim.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.sim.quota.Limit;
import io.cloudg.sim.quota.WindowLimit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** docs/cloud-sim.md lists every limit of both profiles with the numbers and provenance the code serves. */
class QuotaTableDocTest {

    static String format(QuotaEntry e) {
        if (e.quota() instanceof WindowLimit w) {
            long secs = w.windowNanos() / 1_000_000_000L;
            return w.calls() + (secs == 60 ? " per min" : " per " + secs + " s");
        }
        Limit l = (Limit) e.quota();
        return num(l.rate()) + "/s, burst " + num(l.burst());
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.format(Locale.ROOT, "%,d", (long) d) : String.format(Locale.ROOT, "%.2f", d);
    }

    @Test
    void theDocumentedTableIsTheTableInEffect() throws Exception {
        Path doc = Path.of("..", "docs", "cloud-sim.md");
        List<String> rows = Files.readAllLines(doc).stream().filter(l -> l.startsWith("| ")).toList();
        for (Realism r : Realism.values()) {
            for (QuotaEntry e : QuotaSpec.defaults(r).table()) {
                String key = "| " + e.provider() + " | `" + e.key() + "` |";
                String row = rows.stream().filter(l -> l.startsWith(key)).findFirst()
                    .orElseThrow(() -> new AssertionError("docs/cloud-sim.md has no row " + key));
                String[] cells = row.split("\\|");
                String cell = cells[r.strict() ? 4 : 5].trim();
                assertThat(cell).as(r.id() + " " + key).isEqualTo(format(e));
                if (r.strict()) {
                    assertThat(cells[6].trim()).as("provenance of " + key).isEqualTo(e.provenance().id());
                }
            }
        }
    }
}
