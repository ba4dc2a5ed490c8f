package io.cloudg.fleet.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.cloudg.fleet.coordinator.AttemptTracker.GiveUp;
import io.cloudg.fleet.coordinator.AttemptTracker.Retry;
import org.junit.jupiter.api.Test;

/** The retry and timeout rules on a fake clock: {@code now} is a number the test moves. */
class AttemptTrackerTest {
    static final long TIMEOUT = 60_000;
    static final long GRACE = 10_000;
    static final long HANDBACK = 30_000;

    final AttemptTracker tracker = new AttemptTracker(TIMEOUT, GRACE, HANDBACK, 3);
    long now = 1_000_000;

    @Test
    void aQueuedTaskHasNoTimer() {
        tracker.published("t", 1);
        now += 10 * TIMEOUT;
        assertThat(tracker.due(now)).isEmpty();
    }

    @Test
    void aRunningTaskIsLeftAloneUntilItsTimeoutPlusGrace() {
        tracker.published("t", 1);
        tracker.started("t", 1, "e1", "w1", now);
        now += TIMEOUT + GRACE - 1;
        assertThat(tracker.due(now)).isEmpty();
        assertThat(tracker.runningByWorker()).containsEntry("w1", 1);
        now += 1;
        assertThat(tracker.due(now)).singleElement().isInstanceOfSatisfying(Retry.class, r -> {
            assertThat(r.attempt()).isEqualTo(2);
            assertThat(r.avoidWorker()).isEqualTo("w1");
            assertThat(r.reason()).startsWith("no result from worker w1 within the task timeout of 60.0s");
        });
        assertThat(tracker.due(now + 1)).as("each action once").isEmpty();
        assertThat(tracker.runningByWorker()).isEmpty();
    }

    @Test
    void runningExecutionsAreCountedPerWorkerWhateverEndedBesideThem() {
        for (int i = 1; i <= 6; i++) {
            tracker.published("t" + i, 1);
            tracker.started("t" + i, 1, "e" + i, i % 2 == 0 ? "w2" : "w1", now);
        }
        tracker.started("t1", 1, "e1b", "w2", now);                  // a redelivery beside e1
        tracker.terminal("t2");                                        // t2's results were accepted
        tracker.ended("t1", "e1b");                                    // the redelivery's duplicate results
        tracker.failed("t3", 1, "e3", "w1", "abandoned", false, now);  // t3 waits for its retry
        tracker.published("t7", 1);                                    // queued, never started
        assertThat(tracker.runningByWorker()).containsExactly(entry("w1", 2), entry("w2", 2));
        assertThat(tracker.due(now)).containsExactly(new Retry("t3", 2, "w1", "abandoned"));
        tracker.started("t3", 2, "e3b", "w2", now);
        assertThat(tracker.runningByWorker()).containsExactly(entry("w1", 2), entry("w2", 3));
        for (String t : new String[] {"t1", "t3", "t4", "t5", "t6"}) {
            tracker.terminal(t);
        }
        assertThat(tracker.runningByWorker()).isEmpty();
    }

    @Test
    void anAbandonedExecutionIsRetriedAtOnceElsewhere() {
        tracker.published("t", 1);
        tracker.started("t", 1, "e1", "w1", now);
        now += TIMEOUT;
        tracker.failed("t", 1, "e1", "w1", "timeout: ran past 60.0s on worker w1", false, now);
        assertThat(tracker.due(now)).containsExactly(new Retry("t", 2, "w1", "timeout: ran past 60.0s on worker w1"));
        assertThat(tracker.publishedAttempt("t")).isEqualTo(2);
    }

    @Test
    void aRedeliveryAfterACrashPreventsARetryAndItsResultEndsTheTask() {
        tracker.published("t", 1);
        tracker.started("t", 1, "e1", "w1", now);
        now += 15_000;
        tracker.started("t", 1, "e2", "w2", now); // w1 was killed; Kafka redelivered the same attempt to w2
        now = now - 15_000 + TIMEOUT + GRACE;      // e1's silence deadline passes while e2 runs
        assertThat(tracker.due(now)).isEmpty();
        tracker.terminal("t");
        now += 10 * TIMEOUT;
        assertThat(tracker.due(now)).isEmpty();
    }

    @Test
    void aHandedBackTaskWaitsForRedeliveryThenIsPublishedAgain() {
        tracker.published("t", 1);
        tracker.started("t", 1, "e1", "w1", now);
        tracker.failed("t", 1, "e1", "w1", "handed back: worker w1 is shutting down", true, now);
        assertThat(tracker.due(now + HANDBACK - 1)).isEmpty();
        assertThat(tracker.due(now + HANDBACK)).singleElement().isInstanceOfSatisfying(Retry.class,
                r -> assertThat(r.reason()).contains("handed back", "did not redeliver it within 30.0s"));
    }

    @Test
    void aHandedBackTaskThatIsRedeliveredNeedsNothing() {
        tracker.published("t", 1);
        tracker.started("t", 1, "e1", "w1", now);
        tracker.failed("t", 1, "e1", "w1", "handed back", true, now);
        tracker.started("t", 1, "e2", "w2", now + 2_000);
        assertThat(tracker.due(now + HANDBACK + 1)).isEmpty();
    }

    @Test
    void aFailureOfAnOlderAttemptChangesNothing() {
        tracker.published("t", 1);
        tracker.started("t", 1, "e1", "w1", now);
        tracker.failed("t", 1, "e1", "w1", "timeout", false, now);
        assertThat(tracker.due(now)).hasSize(1);
        tracker.started("t", 2, "e2", "w2", now + 1);
        tracker.failed("t", 1, "e3", "w3", "timeout", false, now + 2); // a stale redelivery of attempt 1
        assertThat(tracker.due(now + 3)).isEmpty();
    }

    @Test
    void afterTheLastAttemptTheTaskIsGivenUpWithTheReason() {
        tracker.published("t", 1);
        for (int attempt = 1; attempt <= 3; attempt++) {
            tracker.started("t", attempt, "e" + attempt, "w" + attempt, now);
            tracker.failed("t", attempt, "e" + attempt, "w" + attempt, "timeout on w" + attempt, false, now);
            var actions = tracker.due(now);
            assertThat(actions).hasSize(1);
            if (attempt < 3) {
                assertThat(actions.get(0)).isEqualTo(new Retry("t", attempt + 1, "w" + attempt, "timeout on w" + attempt));
            } else {
                assertThat(actions.get(0)).isEqualTo(new GiveUp("t", "timeout on w3 (gave up after 3 attempts)"));
            }
            now += 1_000;
        }
        assertThat(tracker.due(now + 10 * TIMEOUT)).isEmpty();
    }

    @Test
    void aFailureWhileAnotherExecutionRunsWaitsForThatOne() {
        tracker.published("t", 1);
        tracker.started("t", 1, "e1", "w1", now);
        tracker.started("t", 1, "e2", "w2", now);
        tracker.failed("t", 1, "e1", "w1", "incomplete results", false, now);
        assertThat(tracker.due(now)).isEmpty();
        tracker.failed("t", 1, "e2", "w2", "timeout", false, now + 5);
        assertThat(tracker.due(now + 5)).containsExactly(new Retry("t", 2, "w2", "timeout"));
    }
}
