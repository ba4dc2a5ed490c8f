package io.cloudg.sim.config;

import java.time.Duration;

/**
 * Resources created and deleted while a map runs ({@code churn:} in the estate file).
 *
 * <pre>
 * churn: {created: 0.02, deleted: 0.02, from: 0s, until: 2m}
 * </pre>
 *
 * <p>Each resource of the estate (not accounts, subscriptions, projects, resource groups or the
 * organization's access role) is deleted, with probability {@code deleted}, at a seeded moment between
 * {@code from} and {@code until} after the simulator started; and, with probability {@code created}, it has a
 * sibling of its type created at such a moment. The truth lists both kinds as {@code churned}: a correct map
 * holds every stable asset and may or may not hold a churned one.
 *
 * @param created chance per resource that a sibling appears during the window
 * @param deleted chance per resource that it disappears during the window
 * @param from    start of the window, after the simulator's start
 * @param until   end of the window
 */
public record ChurnSpec(double created, double deleted, Duration from, Duration until) {
    /** No churn. */
    public static final ChurnSpec NONE = new ChurnSpec(0, 0, Duration.ZERO, Duration.ZERO);
    /** Strict's default (guessed): 2% created and 2% deleted in the first two minutes. */
    public static final ChurnSpec STRICT_DEFAULT = new ChurnSpec(0.02, 0.02, Duration.ZERO, Duration.ofMinutes(2));

    public ChurnSpec {
        if (!(created >= 0 && created <= 1) || !(deleted >= 0 && deleted <= 1)) {
            throw new IllegalArgumentException("churn shares must be from 0 to 1: " + created + ", " + deleted);
        }
        if (until.compareTo(from) < 0) {
            throw new IllegalArgumentException("churn window ends before it starts: " + from + " .. " + until);
        }
    }

    public boolean none() {
        return created == 0 && deleted == 0;
    }

    /** The churn in effect: this, or the profile's default when null. */
    public static ChurnSpec effective(ChurnSpec spec, Realism realism) {
        return spec != null ? spec : realism.strict() ? STRICT_DEFAULT : NONE;
    }

    static ChurnSpec read(SpecNode n) {
        if (!n.present()) {
            return null;
        }
        n.onlyKeys("created", "deleted", "from", "until");
        ChurnSpec d = STRICT_DEFAULT;
        Duration from = Durations.read(n.get("from"), d.from());
        Duration until = Durations.read(n.get("until"), n.get("from").present() && !n.get("until").present()
            ? from.plus(d.until()) : d.until());
        if (until.compareTo(from) <= 0) {
            throw n.get("until").error("must be later than churn.from, got " + n.get("until").describe());
        }
        return new ChurnSpec(n.get("created").fraction(d.created(), false), n.get("deleted").fraction(d.deleted(), false),
            from, until);
    }
}
