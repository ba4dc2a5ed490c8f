package io.cloudg.cli;

import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT (Ctrl-C) as a request to stop, for the commands that stop cleanly (a coordinator, a
 * worker, an MCP server): the first signal runs {@code stop} and lets the command finish and exit with its
 * documented code (a JVM left to its own shutdown would exit 143 or 130 whatever the command decided); a
 * second signal ends the process at once with the conventional 128 + signal number.
 */
final class StopSignals implements AutoCloseable {
    private final AtomicBoolean requested = new AtomicBoolean();
    private final SignalHandler previousTerm;
    private final SignalHandler previousInt;

    private StopSignals(Runnable stop) {
        SignalHandler h = sig -> {
            if (requested.compareAndSet(false, true)) {
                Thread t = new Thread(stop, "cloudg-stop");
                t.setDaemon(true);
                t.start();
            } else {
                Runtime.getRuntime().halt(128 + sig.getNumber());
            }
        };
        this.previousTerm = Signal.handle(new Signal("TERM"), h);
        this.previousInt = Signal.handle(new Signal("INT"), h);
    }

    /** Routes SIGTERM and SIGINT to {@code stop} until closed. */
    static StopSignals onStop(Runnable stop) {
        return new StopSignals(stop);
    }

    /** Whether a stop was requested by a signal. */
    boolean requested() {
        return requested.get();
    }

    @Override
    public void close() {
        Signal.handle(new Signal("TERM"), previousTerm);
        Signal.handle(new Signal("INT"), previousInt);
    }
}
