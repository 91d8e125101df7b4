package org.troupe.core.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.troupe.core.spi.CallHandler;
import org.troupe.core.spi.MethodTable;
import org.troupe.core.spi.Proxied;

class ProxyGeneratorTest {
    /** Its constructor must never run for a proxy. */
    static class Calculator {
        static int constructed;
        private final String label;

        Calculator(final String label) {
            this.label = label;
            constructed++;
        }

        public int add(final int a, final int b) {
            return a + b;
        }

        public long mix(
                final byte b,
                final short s,
                final char c,
                final long l,
                final float f,
                final double d,
                final boolean z) {
            return b + s + c + l + (long) f + (long) d + (z ? 1 : 0);
        }

        public void reset() {}

        public String label() {
            return label;
        }

        public double[] scale(final double[] v, final double k) {
            final double[] r = v.clone();
            for (int i = 0; i < r.length; i++) {
                r[i] *= k;
            }
            return r;
        }

        public final String finalMethod() {
            return "final";
        }

        @Override
        public String toString() {
            return "Calculator " + label.length(); // would throw on a proxy if not intercepted
        }
    }

    static final class FinalThing {}

    record Value(int x) {}

    /** Records each call and answers with a canned result. */
    static final class Recording implements CallHandler {
        final List<String> calls = new ArrayList<>();
        Object answer;

        @Override
        public Object handle(final int method, final Object[] args) {
            calls.add(method + ":" + Arrays.deepToString(args));
            return answer;
        }
    }

    @Test
    void shouldRouteEveryInterceptedMethodToTheHandlerWithBoxedArguments() {
        final MethodTable table = MethodTable.of(Calculator.class);
        final Recording h = new Recording();
        final int before = Calculator.constructed;
        final Calculator proxy = ProxyGenerator.newProxy(Calculator.class, h);
        assertEquals(before, Calculator.constructed, "no constructor of the type runs for a proxy");
        h.answer = 42;
        assertEquals(42, proxy.add(1, 2));
        h.answer = 7L;
        assertEquals(7L, proxy.mix((byte) 1, (short) 2, 'c', 4L, 5f, 6d, true));
        h.answer = null;
        proxy.reset();
        h.answer = "text";
        assertEquals("text", proxy.label());
        assertEquals("text", proxy.toString());
        assertEquals(
                List.of(
                        table.indexOf("add", int.class, int.class) + ":[1, 2]",
                        table.indexOf(
                                        "mix",
                                        byte.class,
                                        short.class,
                                        char.class,
                                        long.class,
                                        float.class,
                                        double.class,
                                        boolean.class)
                                + ":[1, 2, c, 4, 5.0, 6.0, true]",
                        table.indexOf("reset") + ":[]",
                        table.indexOf("label") + ":[]",
                        MethodTable.TO_STRING + ":[]"),
                h.calls);
        assertSame(h, ProxyGenerator.handlerOf(proxy));
        assertEquals("final", proxy.finalMethod(), "final methods run on the proxy itself");
    }

    @Test
    void shouldInvokeTheTypesMethodsByIndex() throws Throwable {
        final MethodTable table = MethodTable.of(Calculator.class);
        final Invoker invoker = ProxyGenerator.invoker(Calculator.class);
        final Calculator target = new Calculator("abc");
        assertEquals(5, invoker.invoke(target, table.indexOf("add", int.class, int.class), new Object[] {2, 3}));
        assertEquals(
                1L + 2 + 'c' + 4 + 5 + 6 + 1,
                invoker.invoke(
                        target,
                        table.indexOf(
                                "mix",
                                byte.class,
                                short.class,
                                char.class,
                                long.class,
                                float.class,
                                double.class,
                                boolean.class),
                        new Object[] {(byte) 1, (short) 2, 'c', 4L, 5f, 6d, true}));
        assertArrayEquals(new double[] {2, 4}, (double[]) invoker.invoke(
                target, table.indexOf("scale", double[].class, double.class), new Object[] {new double[] {1, 2}, 2.0}));
        assertEquals(null, invoker.invoke(target, table.indexOf("reset"), new Object[0]));
        assertEquals("Calculator 3", invoker.invoke(target, MethodTable.TO_STRING, new Object[0]));
        assertEquals(true, invoker.invoke(target, MethodTable.EQUALS, new Object[] {target}));
        final IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> invoker.invoke(target, table.size(), new Object[0]));
        assertTrue(e.getMessage().contains("same version"), e.getMessage());
    }

    @Test
    void shouldProxyInterfacesOfTheJdkToo() throws Throwable {
        final Recording h = new Recording();
        h.answer = 3;
        @SuppressWarnings("unchecked")
        final List<String> list = ProxyGenerator.newProxy(List.class, h);
        assertEquals(3, list.size());
        final List<String> real = new ArrayList<>(List.of("a", "b"));
        assertEquals(
                2,
                ProxyGenerator.invoker(List.class)
                        .invoke(real, MethodTable.of(List.class).indexOf("size"), new Object[0]));
    }

    @Test
    void shouldGiveEveryJvmTheSameIndicesForAType() {
        final List<String> names = MethodTable.of(Calculator.class).methods().stream()
                .map(m -> m.getName())
                .toList();
        assertEquals(List.of("equals", "hashCode", "toString", "add", "label", "mix", "reset", "scale"), names);
        assertEquals(
                List.of("finalMethod"),
                MethodTable.of(Calculator.class).notIntercepted().stream()
                        .map(m -> m.getName())
                        .toList());
    }

    @Test
    void shouldRefuseTypesThatCannotBeSubclassed() {
        assertFalse(ProxyGenerator.canProxy(FinalThing.class));
        assertFalse(ProxyGenerator.canProxy(Value.class));
        assertFalse(ProxyGenerator.canProxy(int.class));
        assertFalse(ProxyGenerator.canProxy(String.class));
        assertFalse(ProxyGenerator.canProxy(Thread.State.class));
        assertTrue(ProxyGenerator.canProxy(Calculator.class));
        final IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> ProxyGenerator.newProxy(FinalThing.class, new Recording()));
        assertTrue(e.getMessage().contains("final"), e.getMessage());
        assertInstanceOf(Proxied.class, ProxyGenerator.newProxy(Runnable.class, new Recording()));
    }
}
