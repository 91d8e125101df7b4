package org.troupe.bench.jem3d;

import static org.troupe.bench.BenchFailure.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.openjdk.jmh.infra.Blackhole;
import org.troupe.bench.BenchFailure;
import org.troupe.serialization.CodecSession;
import org.troupe.serialization.Decoder;
import org.troupe.serialization.Encoder;
import org.troupe.serialization.SerializationConfig;
import org.troupe.serialization.TroupeInput;
import org.troupe.serialization.TroupeOutput;

/**
 * Case {@code border}: one border message of the m = 61 interface of the two-subdomain run (60 x 60 cell squares,
 * two faces each: 7200 faces of 3 doubles) through the serialization layer, as a connection carries it: the
 * sender's encoder into a reused buffer, then the receiver's decoder into new objects. {@code array} is the flat
 * {@code double[]} Jem3D sends; {@code list} is an {@code ArrayList} of {@link FaceValue} records. Each sample is
 * one encode + decode, timed alone; the two alternate sample by sample, after a warm-up of both.
 */
final class BorderMessage {
    static final int FACES = 60 * 60 * 2;

    private static final String BLACKHOLE_CHALLENGE =
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.";

    private final Blackhole blackhole = new Blackhole(BLACKHOLE_CHALLENGE);

    /** One implementation bound to its value and to a sender/receiver pair that has already exchanged one message. */
    private static final class Codec {
        final String impl;
        final Object value;
        final Encoder encoder;
        final Decoder decoder;
        final TroupeOutput out;
        final int bytes;

        Codec(final String impl, final Object value) {
            SerializationConfig config = SerializationConfig.builder()
                    .allowPackage(FaceValue.class.getPackageName())
                    .build();
            this.impl = impl;
            this.value = value;
            this.encoder = new CodecSession(config).encoder();
            this.decoder = new CodecSession(config).decoder();
            this.out = encoder.newOutput();
            encodeDecode(); // the first message names the classes; later ones are the steady state
            out.setPosition(0);
            encoder.encode(value, out);
            this.bytes = out.position();
        }

        Object encodeDecode() {
            out.setPosition(0);
            encoder.encode(value, out);
            return decoder.decode(new TroupeInput(out.getBuffer(), 0, out.position()));
        }
    }

    List<BorderFigure> measure(final boolean quick) throws BenchFailure {
        SplittableRandom random = new SplittableRandom(61);
        double[] array = new double[3 * FACES];
        List<FaceValue> list = new ArrayList<>(FACES);
        for (int f = 0; f < FACES; f++) {
            FaceValue v = new FaceValue(random.nextDouble(), random.nextDouble(), random.nextDouble());
            list.add(v);
            array[3 * f] = v.x();
            array[3 * f + 1] = v.y();
            array[3 * f + 2] = v.z();
        }
        Codec[] codecs = {new Codec("array", array), new Codec("list", list)};
        check(codecs[0].encodeDecode() instanceof double[] a && Arrays.equals(a, array), "array");
        check(codecs[1].encodeDecode() instanceof List<?> l && l.equals(list), "list");

        long warmupNanos = quick ? 2_000_000_000L : 6_000_000_000L;
        int samples = quick ? 3_000 : 20_000;
        long end = System.nanoTime() + warmupNanos;
        while (System.nanoTime() < end) {
            for (Codec c : codecs) {
                blackhole.consume(c.encodeDecode());
            }
        }
        long[][] times = new long[codecs.length][samples];
        for (int s = 0; s < samples; s++) {
            for (int c = 0; c < codecs.length; c++) {
                long t0 = System.nanoTime();
                Object decoded = codecs[c].encodeDecode();
                times[c][s] = System.nanoTime() - t0;
                blackhole.consume(decoded);
            }
        }
        List<BorderFigure> figures = new ArrayList<>();
        for (int c = 0; c < codecs.length; c++) {
            long[] sorted = times[c].clone();
            Arrays.sort(sorted);
            figures.add(new BorderFigure(
                    codecs[c].impl,
                    FACES,
                    percentile(sorted, 0.5),
                    percentile(sorted, 0.99),
                    codecs[c].bytes,
                    samples));
        }
        return figures;
    }

    private static double percentile(final long[] sorted, final double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
