/**
 * The simulator's vocabulary, below every other package of it: {@link io.cloudg.sim.core.SimClock} is the one
 * clock of the simulator (quota buckets and windows, the 1-second window statistics, fault time windows and
 * churn all read it, so tests drive them on fake time with {@link io.cloudg.sim.core.ManualClock} and never
 * sleep); {@link io.cloudg.sim.core.CallScope} names one API call the way quotas and fault rules see it
 * (provider, account, region, service, operation); {@link io.cloudg.sim.core.AwsType} is every AWS resource
 * type an estate can hold, as estate files name them; {@link io.cloudg.sim.core.Counters} the whole
 * simulator's counters.
 */
package io.cloudg.sim.core;
