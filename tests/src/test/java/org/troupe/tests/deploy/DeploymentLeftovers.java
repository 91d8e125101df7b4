package org.troupe.tests.deploy;

import java.io.IOException;

/** {@link Leftovers}' checks for test packages other than this one (the Jem3D tests). */
public final class DeploymentLeftovers {
    private DeploymentLeftovers() {}

    /** Asserts that deployment {@code id} left no process or secret file behind (see {@link Leftovers}). */
    public static void assertNothingLeft(final String id) throws InterruptedException, IOException {
        Leftovers.assertNothingLeft(id);
    }
}
