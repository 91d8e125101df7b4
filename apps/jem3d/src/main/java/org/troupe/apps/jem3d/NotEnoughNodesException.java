package org.troupe.apps.jem3d;

/** The deployment gave no node, or fewer than the run requires: a matter of the descriptor or the options. */
public class NotEnoughNodesException extends Jem3dException {
    private static final long serialVersionUID = 1L;

    public NotEnoughNodesException(final String message) {
        super(message);
    }
}
