package io.cloudg.mcp.dataset;

/** No saved dataset has the id asked for (or none exists yet). */
public final class DatasetNotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DatasetNotFoundException(String message) {
        super(message);
    }
}
