/**
 * Fault injection. {@link io.cloudg.sim.fault.FaultEngine} holds the current
 * {@link io.cloudg.sim.config.FaultSpec} (replaceable at run time) and decides, per call, whether a rule
 * fires: the first rule whose match, time window, count ("the first N matching calls") and probability all
 * agree wins. Counts are atomic per rule; probabilities draw from one seeded generator per rule, so a
 * single-threaded client sees the same faults on every run with the same seed.
 */
package io.cloudg.sim.fault;
