package org.troupe.apps.jem3d;

/** A run that cannot go on, with a message for the user that names the problem and, where there is one, the fix. */
public class Jem3dException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Jem3dException(final String message) {
        super(message);
    }

    public Jem3dException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
