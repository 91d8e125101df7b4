package org.troupe.deploy.descriptor;

import org.troupe.core.exceptions.TroupeException;

/** A descriptor that cannot be used: the message names the file, where in it (line:column) and what to fix. */
public class DescriptorException extends TroupeException {
    public DescriptorException(final String message) {
        super(message);
    }

    public DescriptorException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
