package org.troupe.core.metrics;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tag;
import java.nio.BufferOverflowException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a runtime said of its meters the last time it reported: its host and nodes, when the report came, and one
 * sample per meter. The payload a node JVM sends is laid out as below (little-endian; {@code str} is a 16-bit
 * length and UTF-8 bytes); the receiver adds the runtime's id, which it knows from the link, not from the payload.
 *
 * <pre>
 * payload := str host | u16 nodes | str node ... | u32 samples | sample ...
 * sample  := str name | u8 meter type | str base unit | str description | u8 tags | (str key, str value) ...
 *            | u8 values | (u8 statistic, f64) ...
 * </pre>
 *
 * @param runtimeId the reporting runtime's id
 * @param host the host name it runs on
 * @param nodes its nodes' names
 * @param receivedAtMillis when the report came (epoch milliseconds, the receiver's clock)
 * @param samples one per meter, in the order the reporter's registry gave them
 */
public record MetricsReport(
        String runtimeId, String host, List<String> nodes, long receivedAtMillis, List<Sample> samples) {

    public MetricsReport {
        nodes = List.copyOf(nodes);
        samples = List.copyOf(samples);
    }

    /**
     * One meter's values.
     *
     * @param name the meter's name, as registered ({@code troupe.calls.served})
     * @param type what kind of meter it is
     * @param baseUnit the unit of its values ({@code bytes}, {@code seconds}), or empty
     * @param description what it measures, or empty
     * @param tags its tags, sorted by key
     * @param values its measurements ({@code COUNT}, {@code VALUE}, {@code TOTAL_TIME} in seconds, ...)
     */
    public record Sample(
            String name,
            Meter.Type type,
            String baseUnit,
            String description,
            Map<String, String> tags,
            Map<Statistic, Double> values) {
        public Sample {
            tags = Collections.unmodifiableMap(new TreeMap<>(tags));
            values = values.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(values));
        }

        /** The sample of {@code meter} now. */
        public static Sample of(final Meter meter) {
            final Map<String, String> tags = new TreeMap<>();
            for (final Tag t : meter.getId().getTags()) {
                tags.put(t.getKey(), t.getValue());
            }
            final Map<Statistic, Double> values = new EnumMap<>(Statistic.class);
            for (final Measurement m : meter.measure()) {
                values.merge(m.getStatistic(), m.getValue(), Double::sum);
            }
            final Meter.Id id = meter.getId();
            return new Sample(
                    id.getName(),
                    id.getType(),
                    id.getBaseUnit() == null ? "" : id.getBaseUnit(),
                    id.getDescription() == null ? "" : id.getDescription(),
                    tags,
                    values);
        }

        /** The value of {@code statistic}, or NaN if the meter has none. */
        public double value(final Statistic statistic) {
            final Double v = values.get(statistic);
            return v == null ? Double.NaN : v;
        }
    }

    /** The prefixes of the meters of Troupe and of the JVM (Micrometer's binders), as against an application's. */
    private static final List<String> SYSTEM_PREFIXES =
            List.of("troupe.", "jvm.", "process.", "system.", "executor.", "jetty.", "disk.", "logback.");

    /** Whether a meter called {@code name} is Troupe's or the JVM's, not an application's. */
    public static boolean isSystemMeter(final String name) {
        for (final String prefix : SYSTEM_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The first sample called {@code name} whose tags include {@code tags}, or null. */
    public Sample find(final String name, final Map<String, String> tags) {
        for (final Sample s : samples) {
            if (s.name().equals(name) && s.tags().entrySet().containsAll(tags.entrySet())) {
                return s;
            }
        }
        return null;
    }

    /**
     * Writes a report's payload into {@code into} (made little-endian), as many samples as fit; returns how many did.
     *
     * @throws IllegalArgumentException if not even the host and nodes fit, or a name is longer than 65535 bytes
     */
    public static int encode(
            final String host, final List<String> nodes, final List<Sample> samples, final ByteBuffer into) {
        into.order(ByteOrder.LITTLE_ENDIAN);
        try {
            putString(into, host);
            into.putShort((short) nodes.size());
            for (final String n : nodes) {
                putString(into, n);
            }
        } catch (BufferOverflowException e) {
            throw new IllegalArgumentException("a metrics report of " + into.capacity() + " bytes cannot hold even"
                    + " its host and " + nodes.size() + " node names");
        }
        final int countAt = into.position();
        into.putInt(0);
        int written = 0;
        for (final Sample s : samples) {
            final int start = into.position();
            try {
                putSample(into, s);
            } catch (BufferOverflowException e) {
                into.position(start);
                break;
            } catch (IllegalArgumentException e) { // a name or tag too long to say: this one is left out
                into.position(start);
                continue;
            }
            written++;
        }
        into.putInt(countAt, written);
        return written;
    }

    private static void putSample(final ByteBuffer into, final Sample s) {
        putString(into, s.name());
        into.put((byte) s.type().ordinal());
        putString(into, s.baseUnit());
        putString(into, s.description());
        into.put((byte) Math.min(s.tags().size(), 255));
        int tags = 0;
        for (final Map.Entry<String, String> t : s.tags().entrySet()) {
            if (tags++ == 255) {
                break;
            }
            putString(into, t.getKey());
            putString(into, t.getValue());
        }
        into.put((byte) s.values().size());
        for (final Map.Entry<Statistic, Double> v : s.values().entrySet()) {
            into.put((byte) v.getKey().ordinal());
            into.putDouble(v.getValue());
        }
    }

    /**
     * Reads a payload {@link #encode} wrote, from the runtime {@code runtimeId}.
     *
     * @throws IllegalArgumentException if it is not one, saying where it breaks
     */
    public static MetricsReport decode(final String runtimeId, final long receivedAtMillis, final ByteBuffer payload) {
        final ByteBuffer in = payload.slice().order(ByteOrder.LITTLE_ENDIAN);
        try {
            final String host = getString(in);
            final int nodeCount = Short.toUnsignedInt(in.getShort());
            final List<String> nodes = new ArrayList<>(Math.min(nodeCount, in.remaining() / 2));
            for (int i = 0; i < nodeCount; i++) {
                nodes.add(getString(in));
            }
            final int count = in.getInt();
            if (count < 0 || count > in.remaining() / 5) {
                throw new IllegalArgumentException(count + " samples cannot fit in " + in.remaining() + " bytes");
            }
            final List<Sample> samples = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                samples.add(getSample(in));
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes follow the last sample");
            }
            return new MetricsReport(runtimeId, host, nodes, receivedAtMillis, samples);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("the report ends inside a field, at byte " + in.position());
        }
    }

    private static Sample getSample(final ByteBuffer in) {
        final String name = getString(in);
        final Meter.Type type = enumAt(Meter.Type.values(), in.get(), "meter type");
        final String baseUnit = getString(in);
        final String description = getString(in);
        final int tagCount = Byte.toUnsignedInt(in.get());
        final Map<String, String> tags = new TreeMap<>();
        for (int i = 0; i < tagCount; i++) {
            tags.put(getString(in), getString(in));
        }
        final int valueCount = Byte.toUnsignedInt(in.get());
        final Map<Statistic, Double> values = new EnumMap<>(Statistic.class);
        for (int i = 0; i < valueCount; i++) {
            values.put(enumAt(Statistic.values(), in.get(), "statistic"), in.getDouble());
        }
        return new Sample(name, type, baseUnit, description, tags, values);
    }

    private static <E> E enumAt(final E[] all, final byte ordinal, final String what) {
        final int i = Byte.toUnsignedInt(ordinal);
        if (i >= all.length) {
            throw new IllegalArgumentException("unknown " + what + " " + i);
        }
        return all[i];
    }

    private static void putString(final ByteBuffer into, final String s) {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xFFFF) {
            throw new IllegalArgumentException("a metrics name or tag of " + bytes.length + " bytes (at most 65535)");
        }
        into.putShort((short) bytes.length);
        into.put(bytes);
    }

    private static String getString(final ByteBuffer in) {
        final byte[] bytes = new byte[Short.toUnsignedInt(in.getShort())];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
