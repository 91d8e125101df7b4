package org.troupe.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.troupe.core.spi.Spin;

/** {@code troupe.core.waitBackoff} holds for a runtime made from the settings, as MPI ranks and node JVMs make. */
class WaitBackoffSettingTest {
    @Test
    void aRuntimeMadeFromTheSettingsWaitsAsTheySay() {
        System.setProperty(CoreConfig.WAIT_BACKOFF_PROP_NAME, "false");
        try {
            final TroupeRuntime runtime = TroupeRuntime.get();
            try {
                assertFalse(Spin.backsOffWhenCrowded());
            } finally {
                runtime.shutdown();
            }
            assertTrue(Spin.backsOffWhenCrowded(), "the default again once the runtime is gone");
        } finally {
            System.clearProperty(CoreConfig.WAIT_BACKOFF_PROP_NAME);
        }
    }
}
