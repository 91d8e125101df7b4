package org.troupe.core.exceptions;

import java.io.Serial;

/**
 * A thread waiting for a future (touching it, or in {@link org.troupe.core.Futures}) was interrupted. The wait ends; the thread's
 * interrupt flag stays set; the call goes on, and its future still gets the outcome.
 */
public class WaitInterruptedException extends TroupeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public WaitInterruptedException(final String message) {
        super(message);
    }
}
