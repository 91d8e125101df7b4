package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.troupe.core.internal.RuntimeCore;
import org.troupe.core.service.EndActive;
import org.troupe.core.service.InitActive;
import org.troupe.core.service.RunActive;
import org.troupe.core.service.Service;

/** Programmable activities: init and end hooks, and serving requests by name rather than by arrival. */
class ServiceTest {
    /** A one-slot buffer: put only when empty, take only when full, whatever order the calls arrive in. */
    public static class Buffer implements InitActive, RunActive, EndActive {
        private final List<String> events = new ArrayList<>();
        private Integer slot;

        public void put(final int value) {
            slot = value;
            events.add("put " + value);
        }

        public Item take() {
            final Item item = new Item(slot);
            slot = null;
            return item;
        }

        public List<String> events() {
            return new ArrayList<>(events);
        }

        @Override
        public void initActivity(final Service service) {
            events.add("init");
        }

        @Override
        public void runActivity(final Service service) {
            while (service.isActive()) {
                if (slot == null) {
                    service.blockingServeOldest(r -> !r.methodName().equals("take"));
                } else {
                    service.blockingServeOldest(r -> !r.methodName().equals("put"));
                }
            }
        }

        @Override
        public void endActivity(final Service service) {
            ENDED.add("end after " + events.size() + " events");
        }
    }

    public static class Item {
        private int value;

        public Item() {}

        public Item(final int value) {
            this.value = value;
        }

        public int value() {
            return value;
        }
    }

    /** Serves the youngest request first. */
    public static class Stack implements RunActive {
        private final List<Integer> served = new ArrayList<>();

        public void push(final int v) {
            served.add(v);
        }

        public List<Integer> served() {
            return new ArrayList<>(served);
        }

        @Override
        public void runActivity(final Service service) {
            // Pushes wait until someone asks what was served; then the youngest push is served first.
            while (service.waitForRequest(r -> r.methodName().equals("served"))) {
                while (service.serveYoungest("push")) {
                    // drain, youngest first
                }
                service.serveOldest("served");
            }
        }
    }

    static final List<String> ENDED = new CopyOnWriteArrayList<>();

    @RegisterExtension
    final LocalRuntime local = LocalRuntime.allowingPackage("org.troupe.core");

    @Test
    void shouldServeRequestsInTheOrderTheActivityChooses() throws Exception {
        final Buffer b = ActiveObjects.newActive(Buffer.class, null, local.node());
        final Item first = b.take(); // waits for a put, although it arrived first
        final Item second = b.take();
        b.put(1);
        b.put(2);
        assertEquals(1, first.value());
        assertEquals(2, second.value());
        assertEquals(List.of("init", "put 1", "put 2"), b.events());
        ActiveObjects.terminate(b);
        RuntimeCore.bodyOf(b).join(Duration.ofSeconds(30));
        assertEquals(List.of("end after 3 events"), ENDED);
    }

    @Test
    void shouldServeYoungestFirstWhenAskedTo() {
        final Stack s = ActiveObjects.newActive(Stack.class, null, local.node());
        s.push(1);
        s.push(2);
        s.push(3);
        final List<Integer> order = s.served();
        assertEquals(List.of(3, 2, 1), order);
    }

    @Test
    void shouldOnlyLetTheActiveObjectsOwnThreadServe() {
        final Stack s = ActiveObjects.newActive(Stack.class, null, local.node());
        s.push(1); // held until someone asks what was served
        final IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> RuntimeCore.bodyOf(s).serveOldest());
        assertEquals("Only the active object's own thread may serve its requests", e.getMessage());
        assertEquals(List.of(1), s.served(), "the refused call took nothing from the queue");
    }
}
