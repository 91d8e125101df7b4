package org.troupe.core.internal;

/** Completes a future of this JVM with a copy of the result. */
public final class LocalReply implements ReplySink {
    private final FutureState future;
    private final Copier copier;

    public LocalReply(final FutureState future, final Copier copier) {
        this.future = future;
        this.copier = copier;
    }

    @Override
    public void complete(final Object value) {
        final Object copy;
        try {
            copy = copier.copy(value);
        } catch (RuntimeException e) {
            future.fail(e);
            return;
        }
        future.complete(copy);
    }

    @Override
    public void fail(final Throwable failure) {
        future.fail(failure);
    }
}
