package io.cloudg.resilience.spi;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A store whose learned state, what outlives a run (the leaves' AIMD rates, for a shared store also their
 * buckets and breakers), is kept per estate: {@code <provider>:<identity>@<endpoint>}, the organization or
 * management account and the endpoint the calls go to. Two estates with the same account ids (a simulator and a
 * real organization, two simulators at different addresses) never share it. The embedded governor's state file
 * ({@code LearningStateStore}) and Redis ({@code RedisStateStore}) both are, with the same observable behaviour
 * ({@code LearnedStateContract} in this module's test jar):
 * <ul>
 *   <li>{@link #useEstate} tells which estate a provider's calls go to; from then on its leaves are the
 *       estate's, starting from what an earlier run of that estate learned, and what this run learns is kept
 *       under it. The first estate told for a provider holds for the store's life; another one is refused with
 *       a warning (a scope names no estate: one store cannot tell two estates' equal account ids apart).</li>
 *   <li>Before a provider's estate is told (AWS's discovery, which finds the management account), its leaves are
 *       the process's own, and nothing of an estate is used.</li>
 * </ul>
 */
public interface EstateKeyed {
    /**
     * What a run took of the learned state for one provider: its estate, and how many leaves started below
     * their ceiling from what an earlier run learned.
     */
    record EstateUse(String provider, String estate, int restored) {
    }

    /**
     * {@code provider}'s calls go to {@code estate} ({@code aws:123456789012@aws}).
     *
     * @return how many of its leaves start from learned rates (0 when another estate was told before)
     * @throws IllegalArgumentException when {@code estate} is blank
     */
    int useEstate(String provider, String estate);

    /** The estates told so far, by provider in the order they were told. */
    List<EstateUse> uses();

    /** Where the learned state is, as the map's run block names it: {@code file} or {@code redis}, and where. */
    Map<String, String> location();

    /** The estate-keyed store {@code store} is, or wraps ({@link StateStore#estateKeyed()}). */
    static Optional<EstateKeyed> in(StateStore store) {
        return store == null ? Optional.empty() : store.estateKeyed();
    }
}
