package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keys whose hash would cost a peer's few hundred bytes an exponential time (lists nested deep, each holding the one
 * below twice by reference) are refused before they are hashed, whatever hashed container holds them; real keys,
 * shared or not, still travel. The timeout is what the old decoder failed by: it hashed them, for ever.
 */
@Timeout(60)
class HashCostTest {
    /** A record key: its hash is its component's. */
    record Key(Object part) {}

    /** Lists {@code depth} deep, each holding the one below twice: 2^depth steps to hash, 3 * depth objects sent. */
    private static List<Object> doubling(final int depth) {
        List<Object> below = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            final List<Object> l = new ArrayList<>();
            l.add(below);
            l.add(below);
            below = l;
        }
        return below;
    }

    /**
     * A hashed container of {@code kind} whose key holds {@code deep}, which its sender never hashed: the key went in
     * while it was empty, and was filled after (a hostile sender writes the bytes any way it likes).
     */
    private static Object unhashed(final String kind, final List<Object> deep) {
        final List<Object> shell = new ArrayList<>();
        final Object key = kind.equals("record key") ? new Key(shell) : shell;
        final Object container = switch (kind) {
            case "HashSet", "record key" -> new HashSet<>(Set.of(key));
            case "LinkedHashSet" -> new LinkedHashSet<>(List.of(key));
            case "HashMap" -> new HashMap<>(Map.of(key, "value"));
            default -> throw new IllegalArgumentException(kind);
        };
        shell.add(deep);
        return container;
    }

    @ParameterizedTest
    @ValueSource(strings = {"HashSet", "LinkedHashSet", "HashMap", "record key"})
    void keysThatWouldTakeForEverToHashAreRefused(final String kind) {
        final Wire wire = Wire.permissive();
        final Object message = unhashed(kind, doubling(40));
        final byte[] bytes = wire.send(message, true);
        assertTrue(bytes.length < 1_000, "a small message: " + bytes.length + " bytes");
        final SerializationException e = assertThrows(SerializationException.class, () -> wire.receive(bytes));
        assertTrue(String.valueOf(e.getMessage()).contains("steps to hash"), String.valueOf(e.getMessage()));
        assertEquals(List.of("after"), wire.roundTrip(List.of("after"), true), "the session reads on");
    }

    @Test
    void immutableSetsAndMapsCountTheirKeysToo() {
        final Wire wire = Wire.permissive();
        final List<Object> deep = doubling(40);
        for (final Object message : List.of(Set.of("a", deep), Map.of(deep, "v"))) {
            final byte[] bytes = wire.send(message, true);
            final SerializationException e = assertThrows(SerializationException.class, () -> wire.receive(bytes));
            assertTrue(String.valueOf(e.getMessage()).contains("steps to hash"), String.valueOf(e.getMessage()));
        }
    }

    /** Keys that share parts, and many keys, within the bound: each message has a bound of its own. */
    @Test
    void realKeysSharedOrNotTravel() {
        final Wire wire = Wire.permissive();
        final List<Object> shared = doubling(20); // a million steps: within the bound, however many messages
        for (int round = 0; round < 3; round++) {
            final Set<Object> set = wire.roundTrip(new HashSet<>(List.of(shared, "x")), true);
            assertEquals(2, set.size());
        }
        final Map<List<Integer>, Integer> map = new LinkedHashMap<>();
        final List<Integer> common = List.of(1, 2, 3);
        for (int i = 0; i < 10_000; i++) {
            map.put(List.of(i, i + 1), i);
        }
        final Map<Object, Object> back = wire.roundTrip(new LinkedHashMap<>(map), true);
        assertInstanceOf(LinkedHashMap.class, back);
        assertEquals(map, back);
        assertEquals(new ArrayList<>(map.keySet()), new ArrayList<>(back.keySet()), "in their order");
        final Map<Object, Object> twice = new HashMap<>();
        twice.put(common, common);
        twice.put("again", common);
        final Map<Object, Object> twiceBack = wire.roundTrip(twice, true);
        assertSame(twiceBack.get("again"), twiceBack.get(List.of(1, 2, 3)), "a reference stays one object");
    }
}
