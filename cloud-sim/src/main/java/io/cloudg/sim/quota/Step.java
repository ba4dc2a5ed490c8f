package io.cloudg.sim.quota;

/**
 * The result of one pure quota step: the state after the call and what was decided.
 *
 * @param <S> the model's state type
 */
public record Step<S>(S state, Admission admission) {
}
