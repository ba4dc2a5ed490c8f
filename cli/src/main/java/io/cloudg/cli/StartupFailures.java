package io.cloudg.cli;

import io.cloudg.resilience.config.ConfigException;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.config.StartupException;
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

    /**
     * {@code line} with the warnings logged before the failure, which were held back and are not written
     * otherwise (an unknown configuration key may be why the start failed): at most two, then how many more.
     */
    static String withWarnings(String line, java.util.List<String> warnings) {
        if (warnings.isEmpty()) {
            return line;
        }
        String shown = String.join("; ", warnings.subList(0, Math.min(2, warnings.size())).stream()
                .map(StartupFailures::oneLine).toList());
        return oneLine(line + " [" + (warnings.size() == 1 ? "warning" : warnings.size() + " warnings") + " before: "
                + shown + (warnings.size() > 2 ? "; ..." : "") + "]");
    }

    static String oneLine(String m) {
        if (m == null) {
            return "(no message)";
        }
        String s = m.replaceAll("\\s*\\R\\s*", " ").trim();
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }
}
