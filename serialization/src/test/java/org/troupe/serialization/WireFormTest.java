package org.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Objects that cross the wire in another form: replaced when written, resolved when read. */
class WireFormTest {
    /** Something that lives in one JVM; only a handle to it may cross. */
    interface Service {
        String name();
    }

    /** Not allowed by the configuration below: it may only cross as a {@link ServiceRef}. */
    static final class LocalService implements Service {
        private final String name;

        LocalService(final String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }
    }

    record ServiceRef(String name) {}

    record Job(int id, Service service) {}

    /** Resolves handles against the services the receiving side has. */
    static final class ServiceForm implements WireForm<Service, ServiceRef> {
        final Map<String, Service> known = new HashMap<>();

        @Override
        public Class<Service> type() {
            return Service.class;
        }

        @Override
        public Class<ServiceRef> wireType() {
            return ServiceRef.class;
        }

        @Override
        public ServiceRef replace(final Service value) {
            return new ServiceRef(value.name());
        }

        @Override
        public Object resolve(final ServiceRef wire) {
            return known.computeIfAbsent(wire.name(), n -> new LocalService("copy of " + n));
        }
    }

    private static final SerializationConfig CONFIG =
            SerializationConfig.builder().allowClass(Job.class).build();

    private final ServiceForm senderForm = new ServiceForm();
    private final ServiceForm receiverForm = new ServiceForm();
    private final CodecSession sender = new CodecSession(CONFIG, List.of(senderForm));
    private final CodecSession receiver = new CodecSession(CONFIG, List.of(receiverForm));

    private Object roundTrip(final Object message, final boolean references) {
        final TroupeOutput out = sender.encoder().newOutput();
        sender.encoder().encode(message, out, references);
        return receiver.decoder().decode(out.toBytes(), Object.class);
    }

    @Test
    void shouldSendAHandleInPlaceOfTheObjectAndResolveItOnArrival() {
        for (final boolean references : new boolean[] {false, true}) {
            final Job copy = (Job) roundTrip(new Job(1, new LocalService("solver")), references);
            assertEquals(1, copy.id());
            assertSame(receiverForm.known.get("solver"), copy.service(), "references " + references);
            assertEquals("copy of solver", copy.service().name());
        }
    }

    @Test
    void shouldReplaceHiddenClassesWhichCouldNeverCrossByName() {
        final Service lambda = () -> "lambda";
        assertEquals(true, lambda.getClass().isHidden());
        for (int i = 0; i < 2; i++) {
            final Object copy = roundTrip(new ArrayList<>(List.of(lambda, new LocalService("plain"))), false);
            assertEquals(List.of(receiverForm.known.get("lambda"), receiverForm.known.get("plain")), copy);
        }
    }

    @Test
    void shouldNeverNameTheReplacedClassOnTheWire() {
        final byte[] message = sender.encoder().encodeToBytes(new Job(2, new LocalService("x")));
        assertFalse(Wire.containsAscii(message, LocalService.class.getSimpleName()), Wire.hex(message));
    }

    @Test
    void shouldStillRefuseTheReplacedClassWhereNoFormApplies() {
        final CodecSession plain = new CodecSession(CONFIG);
        assertThrows(
                ClassNotAllowedException.class, () -> plain.encoder().encodeToBytes(new Job(3, new LocalService("y"))));
    }
}
