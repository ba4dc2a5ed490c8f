package io.cloudg.sim.config;

import java.time.Duration;

/**
 * One fault rule.
 *
 * @param match       which calls it applies to
 * @param error       what it does
 * @param count       fire on the first {@code count} matching calls only; null = every matching call
 * @param probability fire on each matching call with this probability (seeded); null = always
 * @param from        active from this long after the simulator started (null = from the start)
 * @param until       active until this long after the start (null = forever)
 * @param delay       for {@code slow}: the extra delay
 */
public record FaultRule(Match match, FaultKind error, Integer count, Double probability, Duration from,
                        Duration until, Duration delay) {

    static FaultRule read(SpecNode n) {
        n.onlyKeys("match", "error", "count", "probability", "window", "delay");
        FaultKind kind = FaultKind.parse(n.get("error"));
        Integer count = n.get("count").present() ? n.get("count").positiveInt(0) : null;
        Double p = n.get("probability").present() ? n.get("probability").fraction(0, false) : null;
        if (count != null && p != null) {
            throw n.get("probability").error("use either count or probability, not both");
        }
        SpecNode w = n.get("window").onlyKeys("from", "until");
        Duration from = Durations.read(w.get("from"), null);
        Duration until = Durations.read(w.get("until"), null);
        if (from != null && until != null && until.compareTo(from) <= 0) {
            throw w.get("until").error("must be later than window.from");
        }
        Duration delay = Durations.read(n.get("delay"), kind == FaultKind.SLOW ? Duration.ofSeconds(2) : Duration.ZERO);
        if (kind != FaultKind.SLOW && n.get("delay").present()) {
            throw n.get("delay").error("only applies to error: slow");
        }
        return new FaultRule(n.get("match").present() ? Match.read(n.get("match")) : Match.ANY, kind, count, p,
            from, until, delay);
    }
}
