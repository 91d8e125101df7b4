package org.troupe.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The JVM flags node JVMs get from the JVM that deploys them. */
class NodeJvmFlagsTest {
    @Test
    void aNodeJvmGetsTheFlagsTroupeNeedsEvenWhenTheLauncherHasNone() {
        assertEquals(List.of("--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED"),
            Deployment.nodeJvmFlags(List.of("-Xmx1g", "-Dtroupe.home=/x")));
    }

    @Test
    void aNodeJvmGetsTheLaunchersAccessFlagsAsTheyAreInBothForms() {
        assertEquals(List.of("--sun-misc-unsafe-memory-access=warn", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--enable-preview",
                "--enable-native-access=ALL-UNNAMED"),
            Deployment.nodeJvmFlags(List.of("--sun-misc-unsafe-memory-access=warn", "-Xss4m", "--add-opens",
                "java.base/java.lang=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--enable-preview",
                "-Dx=1")));
    }
}
