package io.cloudg.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The ETA: the calls left at the rate, the quotas' bound, and the previous map's duration as the first guess. */
class EtaTest {
    @Test
    void theCallsLeftAtTheRateOrTheQuotasBoundWhicheverIsLonger() {
        assertThat(Eta.seconds(1000, 100, 0)).isEqualTo(10);
        assertThat(Eta.seconds(1000, 100, 30)).isEqualTo(30);
        assertThat(Eta.seconds(1000, Double.NaN, 0)).isNaN();
        assertThat(Eta.seconds(0, 100, 5)).isEqualTo(5);
    }

    @Test
    void withoutAPreviousMapTheRateEtaIsTheEta() {
        assertThat(Eta.withPrior(42, Double.NaN, 10, 0.3)).isEqualTo(42);
        assertThat(Eta.withPrior(Double.NaN, Double.NaN, 10, 0.3)).isNaN();
    }

    @Test
    void thePreviousMapsDurationLeadsEarlyAndTheRateLate() {
        // the previous map took 150 s; 30 s in, 5% of the calls done, the rate (still climbing) says 600 s
        double w = 0.05 * 0.05; // above (30 / 150)^4 = 0.0016
        assertThat(Eta.withPrior(600, 150, 30, 0.05)).isCloseTo(Math.pow(120, 1 - w) * Math.pow(600, w), within(1e-9))
                .as("a geometric blend: a wild rate ETA moves it little").isLessThan(121);
        // before any rate: what the previous map says
        assertThat(Eta.withPrior(Double.NaN, 150, 30, 0)).isEqualTo(120);
        assertThat(Eta.withPrior(Double.NaN, 150, 30, 0.5)).isEqualTo(120);
        // 90% done, the rate ETA still the longer: mostly the rate's
        assertThat(Eta.withPrior(40, 150, 120, 0.9)).isCloseTo(Math.pow(30, 0.19) * Math.pow(40, 0.81), within(1e-9));
    }

    @Test
    void aMapFasterThanThePreviousOneGoesByItsRate() {
        // 30 s in and a third done, the rate says 60 s left, the mean pace about as much, where the previous map's
        // duration says 120 s: this one is faster
        assertThat(Eta.withPrior(60, 150, 30, 0.35)).isEqualTo(60);
        assertThat(Eta.withPrior(10, 150, 120, 0.9)).isEqualTo(10);
    }

    @Test
    void aRateShorterThanThePreviousMapsWordButAMeanPaceLongerIsBlended() {
        // 30 s in and 5% done (a slow start, the JVM compiling): the rate says 60 s, the mean pace 570 s, the previous
        // map 120 s: blended, by the square of the share done
        assertThat(Eta.withPrior(60, 150, 30, 0.05))
                .isCloseTo(Math.pow(120, 1 - 0.0025) * Math.pow(60, 0.0025), within(1e-9));
    }

    @Test
    void aMapThatRunsLongerThanThePreviousOneGoesByItsRate() {
        assertThat(Eta.withPrior(40, 150, 150, 0.5)).as("as long as the previous map: all the rate's").isEqualTo(40);
        assertThat(Eta.withPrior(40, 150, 200, 0.5)).isEqualTo(40);
        assertThat(Eta.withPrior(Double.NaN, 150, 200, 0.8)).as("no rate yet: the rest at the previous pace")
                .isCloseTo(30, within(1e-9));
    }
}
