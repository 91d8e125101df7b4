package org.troupe.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.troupe.core.CoreConfig;
import org.troupe.core.TroupeRuntime;

/** A group of plain objects needs no runtime: making one starts none, and neither does calling it. */
class GroupsWithoutRuntimeTest {
    public interface Task {
        void run();
    }

    public static final class Counted implements Task {
        private final AtomicInteger runs;

        Counted(final AtomicInteger runs) {
            this.runs = runs;
        }

        @Override
        public void run() {
            runs.incrementAndGet();
        }
    }

    @Test
    void aGroupCalledAfterItsRuntimeEndedStartsNoRuntime() {
        final CoreConfig config = CoreConfig.builder().build();
        final TroupeRuntime first = TroupeRuntime.start(config);
        final AtomicInteger runs = new AtomicInteger();
        final Task group = Groups.of(Task.class, List.of(new Counted(runs), new Counted(runs)));
        first.shutdown();
        group.run();
        assertEquals(2, runs.get(), "both members ran");
        // Had the group's call started a runtime from the settings, this would fail: "already running".
        TroupeRuntime.start(config).shutdown();
    }
}
