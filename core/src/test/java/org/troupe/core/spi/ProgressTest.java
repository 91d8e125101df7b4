package org.troupe.core.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ProgressTest {
    /** A transport whose hook fails as a spinner starts. */
    private static final class FailingOnStart implements Progress.Poller {
        final IllegalStateException failure = new IllegalStateException("a transport's hook failed");
        int stopped;

        @Override
        public void poll() {}

        @Override
        public void watchAgain() {}

        @Override
        public void spinStarted() {
            throw failure;
        }

        @Override
        public void spinStopped() {
            stopped++;
        }
    }

    @Test
    void aSpinThatCannotStartIsNotCountedAsSpinningAndItsTransportsHearItStop() {
        final FailingOnStart poller = new FailingOnStart();
        Progress.register(poller);
        try {
            assertSame(poller.failure, assertThrows(IllegalStateException.class, Progress::startSpinning));
            assertEquals(1, poller.stopped, "the transport heard the spin stop");
            assertFalse(Progress.someoneSpins(), "no spinner is left counted");
        } finally {
            Progress.unregister(poller);
        }
    }
}
