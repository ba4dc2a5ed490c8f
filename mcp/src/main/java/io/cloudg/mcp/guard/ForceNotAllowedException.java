package io.cloudg.mcp.guard;

/** {@code force=true} from a principal whose roles may not force. */
public final class ForceNotAllowedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Principal principal;

    public ForceNotAllowedException(Principal principal) {
        super("force=true needs the admin or operator role; " + principal.name() + " has "
                + String.join(", ", principal.roleNames()));
        this.principal = principal;
    }

    public Principal principal() {
        return principal;
    }
}
