package org.troupe.serialization;

import java.io.Serial;

/**
 * A message could not be written or read: the object graph is not serializable as configured, or the bytes are
 * truncated, corrupt or hostile. The session that threw it stays usable for the next message.
 */
public class SerializationException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public SerializationException(final String message) {
        super(message);
    }

    public SerializationException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
