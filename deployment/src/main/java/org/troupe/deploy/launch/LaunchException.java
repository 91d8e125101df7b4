package org.troupe.deploy.launch;

import org.troupe.core.exceptions.TroupeException;

/** A launch step that failed: the message says where, why, and what to check. */
public final class LaunchException extends TroupeException {
    public LaunchException(final String message) {
        super(message);
    }

    public LaunchException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
