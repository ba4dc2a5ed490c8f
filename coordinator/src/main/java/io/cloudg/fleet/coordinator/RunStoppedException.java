package io.cloudg.fleet.coordinator;

/** The coordinator was asked to stop before its run finished; the run can be continued with {@code --resume}. */
public final class RunStoppedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String runId;

    RunStoppedException(String runId) {
        super("run " + runId + " stopped before it finished; continue it with: cloudg map --distributed --resume " + runId);
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
