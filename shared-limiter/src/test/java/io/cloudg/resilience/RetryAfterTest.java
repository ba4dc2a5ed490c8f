package io.cloudg.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
    static final long NOW = 1_767_225_600_000L;

    @Test
    void secondsAndFractions() {
        assertThat(RetryAfter.parseNanos("5", NOW)).isEqualTo(5_000_000_000L);
        assertThat(RetryAfter.parseNanos(" 1.5 ", NOW)).isEqualTo(1_500_000_000L);
        assertThat(RetryAfter.parseNanos("0", NOW)).isZero();
    }

    @Test
    void httpDates() {
        String in30 = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.ofInstant(java.time.Instant.ofEpochMilli(NOW + 30_000), ZoneOffset.UTC));
        assertThat(RetryAfter.parseNanos(in30, NOW)).isEqualTo(30_000_000_000L);
        assertThat(RetryAfter.parseNanos("Thu, 01 Jan 1970 00:00:00 GMT", NOW)).as("in the past").isZero();
    }

    @Test
    void cappedAtFiveMinutes() {
        assertThat(RetryAfter.parseNanos("86400", NOW)).isEqualTo(RetryAfter.MAX_NANOS);
        assertThat(RetryAfter.parseNanos("Fri, 31 Dec 2100 23:59:59 GMT", NOW)).isEqualTo(RetryAfter.MAX_NANOS);
    }

    @Test
    void malformedValuesAreIgnored() {
        for (String bad : new String[] {null, "", "  ", "-3", "soon", "1e9", "5s", "Tue, 99 Foo 2026", "1.2.3", "."}) {
            assertThat(RetryAfter.parseNanos(bad, NOW)).as("%s", bad).isEqualTo(RetryAfter.NONE);
        }
    }
}
