package org.troupe.bench.serialization;

import java.util.Objects;
import java.util.Optional;

/** A remote call's request: a few ints and one small object with a short name; per-message overhead dominates. */
final class SmallRequestCase implements BenchCase {
    @Override
    public String name() {
        return "small-request";
    }

    @Override
    public Object build() {
        final Payload payload = new Payload();
        payload.id = 1_234_567_890_123L;
        payload.x = 0.125;
        payload.name = "cell-block-17";
        final Request request = new Request();
        request.methodId = 3;
        request.a = 17;
        request.b = -4;
        request.c = 100_000;
        request.p = payload;
        return request;
    }

    @Override
    public Optional<String> difference(final Object original, final Object copy) {
        if (!(copy instanceof Request c)) {
            return Optional.of("expected a Request but got " + Differences.typeOf(copy));
        }
        final Request o = (Request) original;
        if (c == o || c.p == o.p) {
            return Optional.of("the copy shares objects with the original");
        }
        if (o.methodId != c.methodId || o.a != c.a || o.b != c.b || o.c != c.c) {
            return Optional.of("the request's ints differ");
        }
        if (c.p == null
                || o.p.id != c.p.id
                || Double.compare(o.p.x, c.p.x) != 0
                || !Objects.equals(o.p.name, c.p.name)) {
            return Optional.of("the payload differs");
        }
        return Optional.empty();
    }
}
