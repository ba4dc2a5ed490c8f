/**
 * What every module's tests share about time, shipped in shared-limiter's test jar: {@link
 * io.cloudg.resilience.testkit.Poll} waits for a condition (or for the clock under test to reach a time)
 * instead of sleeping.
 */
package io.cloudg.resilience.testkit;
