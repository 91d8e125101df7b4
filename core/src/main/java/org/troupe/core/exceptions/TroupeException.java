package org.troupe.core.exceptions;

import java.io.Serial;

/** Something in the Troupe runtime went wrong; the message says what and, where it can, how to fix it. */
public class TroupeException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public TroupeException(final String message) {
        super(message);
    }

    public TroupeException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
