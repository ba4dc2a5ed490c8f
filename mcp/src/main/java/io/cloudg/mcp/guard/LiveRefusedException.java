package io.cloudg.mcp.guard;

/** The guard refused a live call (the MCP layer turns this into a -31029 tool error). */
public final class LiveRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Refusal refusal;

    public LiveRefusedException(Refusal refusal) {
        super(refusal.message());
        this.refusal = refusal;
    }

    public Refusal refusal() {
        return refusal;
    }
}
