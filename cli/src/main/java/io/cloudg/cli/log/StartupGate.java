package io.cloudg.cli.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds a command's log lines until it has started, so that a start-up failure is the one line that says why
 * and nothing before it: the lines logged while the command checks its configuration, endpoints, Redis and
 * Kafka (the learned rates it loaded, the simulator it started) wait here. Once the command says it started
 * ({@link #open()}), they are written in order and later lines go straight through; if it could not start
 * ({@link #drop()}), they are dropped, and so is whatever is logged while the process exits. A gate that
 * holds more than {@value #MAX_HELD} lines opens by itself: a start-up that talks that much is running.
 */
final class StartupGate extends UnsynchronizedAppenderBase<ILoggingEvent> {
    static final int MAX_HELD = 1000;

    private enum State { HOLDING, OPEN, DROPPING }

    private final Appender<ILoggingEvent> target;
    private final List<ILoggingEvent> held = new ArrayList<>();
    private State state;

    /** {@code open}: pass lines through from the start (when debugging, every line as it comes matters). */
    StartupGate(Appender<ILoggingEvent> target, boolean open) {
        this.target = target;
        this.state = open ? State.OPEN : State.HOLDING;
    }

    @Override
    protected void append(ILoggingEvent event) {
        synchronized (this) {
            if (state == State.DROPPING) {
                return;
            }
            if (state == State.HOLDING) {
                if (held.size() < MAX_HELD) {
                    event.prepareForDeferredProcessing();
                    held.add(event);
                    return;
                }
                open();
            }
            target.doAppend(event); // in the lock: a line logged while the held ones are written waits its turn
        }
    }

    /** The command started: the held lines are written, in order, and the gate stays open. */
    synchronized void open() {
        if (state != State.HOLDING) {
            return;
        }
        state = State.OPEN;
        for (ILoggingEvent e : held) {
            target.doAppend(e);
        }
        held.clear();
    }

    /**
     * The command could not start: the held lines are dropped, and everything logged from now on. Returns
     * the messages of the held warnings and errors, which the failure's line may carry.
     */
    synchronized List<String> drop() {
        List<String> warnings = new ArrayList<>();
        if (state == State.HOLDING) {
            for (ILoggingEvent e : held) {
                if (e.getLevel().isGreaterOrEqual(Level.WARN)) {
                    warnings.add(e.getFormattedMessage());
                }
            }
        }
        held.clear();
        state = State.DROPPING;
        return warnings;
    }

    @Override
    public void stop() {
        open();
        target.stop();
        super.stop();
    }
}
