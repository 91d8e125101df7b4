package org.troupe.tests.net;

import org.troupe.core.ActiveObjects;
import org.troupe.core.TroupeRuntime;

/** An active object that says where it lives and calls others: hops between the JVMs of NetworkNamespacesTest. */
public class Hop {
    public Hop() {}

    /** The id of the runtime this object lives in. */
    public String where() {
        return TroupeRuntime.get().id();
    }

    /** Calls {@code other} from here: how this JVM names it (its address there) and the runtime that answered. */
    public String call(final Hop other) {
        return other + " " + other.where();
    }

    /**
     * Has {@code other} call, through the reference this JVM sends it, a new object of this JVM: how {@code other}
     * names it, and the runtime that answered.
     */
    public String introduceTo(final Hop other) {
        final Hop here =
                ActiveObjects.newActive(Hop.class, null, TroupeRuntime.get().defaultNode());
        return other.call(here);
    }
}
