package org.troupe.core.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AnswerFlowTest {
    private static final long MAX = OutboundPath.MAX_PENDING_BYTES;

    private final Object lock = new Object();
    private final AnswerFlow flow = new AnswerFlow(lock);

    @Test
    void readingGoesOnWhileAtMostTheLimitOfAnswersWaits() {
        synchronized (lock) {
            flow.queued(MAX);
        }
        assertFalse(flow.holdReads());
        assertFalse(flow.readsHeld());
    }

    @Test
    void readingIsHeldOnceMoreThanTheLimitWaitsAndResumesWhenHalfHasLeft() {
        synchronized (lock) {
            flow.queued(MAX);
            final long handed = flow.handedOver();
            assertEquals(MAX, handed, "what was queued is in flight");
            flow.queued(1);
            assertTrue(flow.holdReads(), "queued and in flight count together");
            assertTrue(flow.readsHeld());
            assertFalse(flow.answersLeft(), "nothing has left yet");
            assertTrue(flow.readsHeld());
            flow.written(handed);
            assertTrue(flow.answersLeft(), "reading resumes once the bytes in flight are written");
            assertFalse(flow.readsHeld());
            assertFalse(flow.answersLeft(), "it resumes once");
        }
    }

    @Test
    void readingStaysHeldUntilLessThanHalfTheLimitWaits() {
        synchronized (lock) {
            flow.queued(MAX + 1);
            assertTrue(flow.holdReads());
            final long handed = flow.handedOver();
            flow.queued(MAX / 2);
            flow.written(handed);
            assertFalse(flow.answersLeft(), "half the limit still waits");
            flow.queueWritten();
            assertTrue(flow.answersLeft(), "the queue written by its sender counts as left");
        }
    }

    @Test
    void answersLeftNeverResumesReadingThatWasNotHeld() {
        synchronized (lock) {
            assertFalse(flow.answersLeft());
        }
    }
}
