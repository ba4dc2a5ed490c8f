package io.cloudg.sim.aws.wire;

/** A request member that could not be read (bad number, bad timestamp, bad JSON). */
public final class WireException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WireException(String message) {
        super(message);
    }
}
