package io.cloudg.cli;

import io.cloudg.resilience.config.ConfigException;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.run.StartupException;
import io.cloudg.sim.config.SpecException;
import java.io.UncheckedIOException;
import java.net.BindException;

/**
 * Which failures mean "the command could not start" (exit 2, one line on stderr, no stack trace), and the
 * line: bad configuration or flags, a cloud-sim estate or faults file that does not load, no credentials, an
 * endpoint or a Redis that cannot be reached, a port already in use. Everything else is an internal error.
 */
final class StartupFailures {
    private StartupFailures() {
    }

    /** The one line for {@code e} when it is a start-up failure, else null. */
    static String line(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConfigException || t instanceof StartupException || t instanceof SpecException
                    || t instanceof StateStoreUnavailableException) {
                return oneLine(t.getMessage());
            }
            if (t instanceof UncheckedIOException u && u.getCause() != null) {
                String cause = u.getCause().getMessage();
                boolean said = cause == null || u.getMessage() != null && u.getMessage().contains(cause);
                return oneLine(said ? u.getMessage() : u.getMessage() + " (" + cause + ")");
            }
            if (t instanceof BindException) {
                return oneLine("cannot listen: " + t.getMessage());
            }
        }
        return null;
    }

    static String oneLine(String m) {
        if (m == null) {
            return "(no message)";
        }
        String s = m.replaceAll("\\s*\\R\\s*", " ").trim();
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }
}
