package io.cloudg.cli.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Fitting a status line to the terminal: the least important fields go first, the head and the ETA stay. */
class StatusFitTest {
    static final String EMBEDDED = "[61234/156400 jobs (39%)] 2120.4 calls/s, 12 throttled, 40 retries, 1041023 calls, ETA 1:03:10";
    static final String FLEET = "[1234/6240 jobs (19%); 120/480 tasks] 3 workers busy, 2 failed, 212.4 calls/s, 5230 assets, "
            + "2 retried, 1 duplicate dropped, ETA 3:10";

    @Test
    void aLineThatFitsIsUnchanged() {
        assertThat(StatusFit.fit(EMBEDDED, 200)).isEqualTo(EMBEDDED);
        assertThat(StatusFit.fit(EMBEDDED, EMBEDDED.length() + 1)).as("one column is kept free").isEqualTo(EMBEDDED);
        assertThat(StatusFit.fit(EMBEDDED, EMBEDDED.length())).isNotEqualTo(EMBEDDED);
    }

    @Test
    void fieldsAreDroppedFromTheLeastImportantKeepingTheEta() {
        assertThat(StatusFit.fit(EMBEDDED, 80)).isEqualTo("[61234/156400 jobs (39%)] 2120.4 calls/s, 12 throttled, 40 retries, ETA 1:03:10");
        assertThat(StatusFit.fit(EMBEDDED, 70)).isEqualTo("[61234/156400 jobs (39%)] 2120.4 calls/s, 12 throttled, ETA 1:03:10");
        assertThat(StatusFit.fit(EMBEDDED, 50)).isEqualTo("[61234/156400 jobs (39%)] ETA 1:03:10");
        assertThat(StatusFit.fit(FLEET, 80)).isEqualTo("[1234/6240 jobs (19%); 120/480 tasks] 3 workers busy, 2 failed, ETA 3:10");
    }

    @Test
    void everyWidthGivesALineThatFits() {
        for (String line : new String[] {EMBEDDED, FLEET, "[planning] 12.0 calls/s, 40 calls, 0 throttled, 0 retries", "no fields at all"}) {
            for (int w = 2; w < 160; w++) {
                String fitted = StatusFit.fit(line, w);
                assertThat(fitted.length()).as("%s at %d", line, w).isLessThanOrEqualTo(w - 1).isPositive();
                if (!fitted.endsWith("...")) {
                    String body = fitted.startsWith("[") && fitted.contains("] ") ? fitted.substring(fitted.indexOf("] ") + 2)
                            : fitted.startsWith("[") ? "" : fitted;
                    assertThat(line).as("the head: %s at %d", fitted, w).startsWith(fitted.substring(0, fitted.length() - body.length()));
                    for (String field : body.isEmpty() ? new String[0] : body.split(", ")) {
                        assertThat(line).as("whole fields of the line: %s at %d", fitted, w).contains(field);
                    }
                }
            }
        }
        assertThat(StatusFit.fit(EMBEDDED, 20)).isEqualTo("[61234/156400 jo...");
        assertThat(StatusFit.fit(EMBEDDED, 30)).isEqualTo("[61234/156400 jobs (39%)]");
    }
}
