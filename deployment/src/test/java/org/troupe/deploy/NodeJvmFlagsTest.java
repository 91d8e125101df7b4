package org.troupe.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The JVM flags and settings node JVMs get from the JVM that deploys them. */
class NodeJvmFlagsTest {
    @Test
    void aNodeJvmGetsTheFlagsTroupeNeedsEvenWhenTheLauncherHasNone() {
        assertEquals(
                List.of(
                        "--sun-misc-unsafe-memory-access=allow",
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                        "-Dtroupe.core.port=0"),
                Deployment.nodeJvmFlags(List.of("-Xmx1g", "-Dtroupe.home=/x")),
                "a port of its own, whatever a troupe.properties where it runs says");
    }

    @Test
    void aNodeJvmGetsTheLaunchersAccessFlagsAsTheyAreInBothForms() {
        assertEquals(
                List.of(
                        "--sun-misc-unsafe-memory-access=warn",
                        "--add-opens",
                        "java.base/java.lang=ALL-UNNAMED",
                        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                        "--enable-preview",
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                        "-Dtroupe.core.port=0"),
                Deployment.nodeJvmFlags(List.of(
                        "--sun-misc-unsafe-memory-access=warn",
                        "-Xss4m",
                        "--add-opens",
                        "java.base/java.lang=ALL-UNNAMED",
                        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                        "--enable-preview",
                        "-Dx=1")));
    }

    @Test
    void theExportAgronasRingsNeedIsGivenOnceWhateverFormTheLauncherGaveItIn() {
        final List<String> twoWords =
                Deployment.nodeJvmFlags(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        assertEquals(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"), twoWords.subList(0, 2));
        assertEquals(
                1,
                twoWords.stream().filter(f -> f.contains("jdk.internal.misc")).count(),
                twoWords.toString());
    }

    /**
     * The launcher's -Dtroupe.* settings reach the node JVMs of this host as its environment does; not the secret
     * (command lines are public), nor where it listens (each node JVM listens where its parent reaches it); and
     * that the launcher checked them for unknown keys, so that they do not warn again.
     */
    @Test
    void localNodeJvmsGetTheLaunchersTroupeSettingsButNotItsSecretNorWhereItListens() {
        final Properties p = new Properties();
        p.setProperty("troupe.core.callTimeoutMillis", "5000");
        p.setProperty("troupe.serialization.allowedPackages", "org.acme");
        p.setProperty("troupe.core.secret", "not-on-a-command-line-0123456789abcdef");
        p.setProperty("troupe.core.secretFile", "/home/me/.troupe-secret");
        p.setProperty("troupe.core.bindAddress", "10.213.18.2");
        p.setProperty("troupe.core.advertiseAddress", "front.example");
        p.setProperty("troupe.core.port", "7000");
        p.setProperty("troupe.deploy.relayOutput", "true");
        p.setProperty("user.name", "me");
        assertEquals(
                List.of(
                        "-Dtroupe.core.callTimeoutMillis=5000",
                        "-Dtroupe.serialization.allowedPackages=org.acme",
                        "-Dtroupe.config.checked=true"),
                Deployment.localSettings(p));
    }
}
