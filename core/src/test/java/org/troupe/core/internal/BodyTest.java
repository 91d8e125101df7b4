package org.troupe.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.troupe.core.instrument.ObjectMeters;
import org.troupe.core.spi.MethodTable;
import org.troupe.serialization.SerializationConfig;

class BodyTest {
    public static class Echo {
        public String echo(final String s) {
            return s;
        }
    }

    @Test
    void shouldTellTheCallerWhenItsReplyCannotBeDeliveredAndServeOn() throws Exception {
        final Body body =
                new Body(1, new Echo(), 0, new Copier(SerializationConfig.defaults()), ObjectMeters.OFF, () -> {});
        body.start("Echo#1", null);
        try {
            final MethodTable table = MethodTable.of(Echo.class);
            final int echo = table.indexOf("echo", String.class);
            final CompletableFuture<Throwable> told = new CompletableFuture<>();
            body.enqueue(new Request(echo, table.method(echo), new Object[] {"first"}, new ReplySink() {
                @Override
                public void complete(final Object value) {
                    throw new IllegalStateException("the reply could not be written");
                }

                @Override
                public void fail(final Throwable failure) {
                    told.complete(failure);
                }
            }));
            assertInstanceOf(
                    IllegalStateException.class,
                    told.get(10, TimeUnit.SECONDS),
                    "the caller hears why instead of waiting for ever");
            final CompletableFuture<Object> second = new CompletableFuture<>();
            body.enqueue(new Request(echo, table.method(echo), new Object[] {"second"}, new ReplySink() {
                @Override
                public void complete(final Object value) {
                    second.complete(value);
                }

                @Override
                public void fail(final Throwable failure) {
                    second.completeExceptionally(failure);
                }
            }));
            assertEquals("second", second.get(10, TimeUnit.SECONDS), "the body still serves");
            assertTrue(body.isActive());
        } finally {
            body.terminate();
        }
    }
}
