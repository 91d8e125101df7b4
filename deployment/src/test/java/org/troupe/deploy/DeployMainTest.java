package org.troupe.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.configuration2.MapConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.serialization.SerializationConfig;

/** bin/deploy's command line: what it prints and the exit code it gives, for good and bad input. */
class DeployMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        return DeployMain.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void checkPrintsThePlanOfEachChain() {
        assertEquals(0, run("../descriptors/multi-cluster.xml", "--check"), err());
        assertTrue(out().contains("virtual node workers: wants all it is offered, offered 3"), out());
        assertTrue(
                out().contains("ssh 'frontendA': frontend-a:22 (known hosts: strict)\n"
                        + "    -> pbs 'clusterA': qsub nodes=1:ppn=1 walltime=00:30:00"),
                out());
        assertTrue(out().contains("-> slurm 'clusterB': sbatch --nodes=1 --ntasks=1 --time=00:30:00"), out());
        assertTrue(
                out().contains("-> jvm 'jvmsA': 1 JVM x 1 node, options -Xmx512m\n    its node JVMs dial "),
                "each chain says where its JVMs dial: " + out());
    }

    /** What a launcher set to listen on loopback on purpose cannot deploy is refused by --check already. */
    @Test
    void checkFailsNamingTheSettingWhenTheBatchSystemsNodesCannotReachALoopbackLauncher() {
        System.setProperty("troupe.core.bindAddress", "127.0.0.1");
        try {
            assertEquals(2, run("../descriptors/slurm.xml", "--check"), out());
        } finally {
            System.clearProperty("troupe.core.bindAddress");
        }
        assertTrue(
                err().startsWith("bin/deploy: cannot deploy: ../descriptors/slurm.xml reaches other"
                        + " hosts (the compute nodes of slurm 'cluster'), which cannot reach this JVM at 127.0.0.1:"
                        + " troupe.core.bindAddress=127.0.0.1 makes it listen there; set troupe.core.bindAddress="),
                err());
        assertEquals("", out(), "no plan");
    }

    @Test
    void helpGoesToStandardOutputWhereverItIsAsked() {
        assertEquals(0, run("--help"));
        assertTrue(out().startsWith("Usage: bin/deploy DESCRIPTOR --check"), out());
        out.reset();
        assertEquals(0, run("../descriptors/local.xml", "--cp", "x.jar", "-h"));
        assertTrue(out().startsWith("Usage: bin/deploy DESCRIPTOR --check"), out());
    }

    @Test
    void theHelpThatTheScriptPrintsIsTheUsage() throws IOException {
        assertEquals(
                Files.readString(Path.of("src/main/resources/org/troupe/deploy/deploy-usage.txt")), DeployMain.USAGE);
    }

    private static DeployMain.Options parse(final String... args) throws DeployMain.UsageException {
        return DeployMain.parse(args);
    }

    @Test
    void optionsComeInAnyOrderAndWhatFollowsTheMainClassIsTheApplications() throws Exception {
        final Path local = Path.of("../descriptors/local.xml");
        final List<String> appArgs = List.of("--cp", "y.jar", "--timeout", "x", "--help");
        for (final String[] line : List.of(
                new String[] {"--cp", "a.jar:b", "../descriptors/local.xml", "--timeout", "5", "--run", "org.acme.Main"
                },
                new String[] {"../descriptors/local.xml", "--cp", "a.jar:b", "--timeout", "5", "--run", "org.acme.Main"
                },
                new String[] {
                    "--timeout", "5", "--cp", "a.jar", "--cp", "b", "../descriptors/local.xml", "--run", "org.acme.Main"
                })) {
            final String[] withArgs =
                    Stream.concat(Arrays.stream(line), appArgs.stream()).toArray(String[]::new);
            final DeployMain.Options o = parse(withArgs);
            assertEquals(
                    new DeployMain.Options(
                            local,
                            List.of(Path.of("a.jar"), Path.of("b")),
                            Duration.ofSeconds(5),
                            -1,
                            "org.acme.Main",
                            appArgs),
                    o,
                    String.join(" ", line));
        }
        assertEquals(
                new DeployMain.Options(local, List.of(Path.of("a.jar")), Duration.ofSeconds(5), -1, "M", List.of()),
                parse("--cp=a.jar", "--timeout=5", "../descriptors/local.xml", "--run", "M"),
                "the --option=VALUE form");
        assertEquals(
                0, parse("../descriptors/local.xml", "--monitor", "--run", "M").monitorPort());
        assertEquals(
                9100,
                parse("--monitor=9100", "../descriptors/local.xml", "--run", "M")
                        .monitorPort());
        assertEquals(
                List.of("--monitor"),
                parse("../descriptors/local.xml", "--run", "M", "--monitor").args(),
                "after --run MAIN, --monitor is the application's");
        final DeployMain.Options check = parse("--check", "../descriptors/local.xml");
        assertTrue(check.check());
        assertEquals(Duration.ofSeconds(120), check.timeout());
    }

    /** Asserts that {@code args} exit 64 with {@code message} first on standard error. */
    private void assertBadUsage(final String message, final String... args) {
        err.reset();
        assertEquals(64, run(args), String.join(" ", args));
        assertTrue(err().startsWith("bin/deploy: " + message + "\n"), String.join(" ", args) + ": " + err());
        assertTrue(err().contains("Usage:"), err());
    }

    @Test
    void badUsageSaysWhatIsWrongAndExits64() {
        assertBadUsage("name a descriptor, and say --check or --run MAIN_CLASS");
        assertBadUsage("unknown option --launch", "../descriptors/local.xml", "--launch", "--run", "X");
        assertBadUsage("say --check, or --run MAIN_CLASS [ARGS...]", "../descriptors/local.xml");
        assertBadUsage("name the descriptor to deploy, e.g. descriptors/local.xml", "--run", "X");
        assertBadUsage("one descriptor at a time: a.xml or b.xml?", "a.xml", "b.xml", "--check");
        assertBadUsage(
                "one descriptor at a time: a.xml or org.acme.Main? (to run org.acme.Main, say --run org.acme.Main)",
                "a.xml",
                "--cp",
                "classes",
                "org.acme.Main");
        assertBadUsage(
                "unknown option -cp: the application's class path is --cp PATH",
                "a.xml",
                "-cp",
                "classes",
                "--run",
                "org.acme.Main");
        assertBadUsage("say --check or --run, not both", "../descriptors/local.xml", "--check", "--run", "X");
        assertBadUsage("--run needs the application's main class", "../descriptors/local.xml", "--run");
        assertBadUsage("--cp needs a class path", "--cp", "--run", "X", "../descriptors/local.xml");
        assertBadUsage(
                "--timeout takes a number of seconds, not 'soon'",
                "../descriptors/local.xml",
                "--timeout",
                "soon",
                "--run",
                "X");
        err.reset();
        assertEquals(64, run("../descriptors/local.xml", "--cp", "no/such/dir", "--run", "X"));
        assertEquals("bin/deploy: --cp names no/such/dir, which does not exist\n", err());
        assertBadUsage(
                "unknown option -Djvms=2: settings and the descriptor's ${variables} go in JAVA_OPTS"
                        + " (JAVA_OPTS=\"-Djvms=2\" bin/deploy ...)",
                "-Djvms=2",
                "../descriptors/local.xml",
                "--run",
                "X");
        assertBadUsage(
                "name the descriptor before --run: what follows --run X is the application's arguments",
                "--run",
                "X",
                "--cp",
                "a.jar",
                "../descriptors/local.xml");
        err.reset();
        assertEquals(64, run("../descriptors/local.xml", "--run", "org.example.NoSuchApp", "--cp", "app.jar"));
        assertEquals(
                "bin/deploy: no class org.example.NoSuchApp with a main(String[]) on the class path (add the"
                        + " application's classes with --cp PATH, before --run: what follows --run org.example.NoSuchApp is the"
                        + " application's arguments)\n",
                err());
        err.reset();
        assertEquals(64, run("../descriptors/local.xml", "--run", "org.example.NoSuchApp"));
        assertEquals(
                "bin/deploy: no class org.example.NoSuchApp with a main(String[]) on the class path (add the"
                        + " application's classes with --cp PATH)\n",
                err());
    }

    @Test
    void theMainClassPackageIsAllowedUnlessTheUserSaidWhichAre() {
        final String key = SerializationConfig.ALLOWED_PACKAGES_PROP_NAME;
        final String before = System.getProperty(key);
        try {
            System.clearProperty(key);
            assertEquals(
                    "allowing package org.acme.pi for serialization (troupe.serialization.allowedPackages)",
                    DeployMain.allowMainPackage("org.acme.pi.Main", new MapConfiguration(Map.of())));
            assertEquals("org.acme.pi", System.getProperty(key), "what the runtime and the node JVMs get");
            System.clearProperty(key);
            assertNull(
                    DeployMain.allowMainPackage("org.acme.pi.Main", new MapConfiguration(Map.of(key, "org.other"))),
                    "the user's choice stands");
            assertNull(DeployMain.allowMainPackage("Main", new MapConfiguration(Map.of())), "no package to allow");
            assertNull(
                    DeployMain.allowMainPackage("java.lang.Thread", new MapConfiguration(Map.of())),
                    "a JDK package is never allowed whole");
            assertNull(
                    DeployMain.allowMainPackage("org.Main", new MapConfiguration(Map.of())),
                    "nor a top-level one: every org.* class of the class path");
            assertNull(
                    DeployMain.allowMainPackage("org.troupe.Main", new MapConfiguration(Map.of())), "nor Troupe's own");
            assertNull(System.getProperty(key));
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }

    @Test
    void aMissingDescriptorExits2InOneLineWithoutTheUsage() {
        assertEquals(2, run("no/such.xml", "--check"));
        assertEquals("bin/deploy: descriptor no/such.xml does not exist\n", err());
        err.reset();
        assertEquals(2, run("no/such.xml", "--run", "org.acme.Main", "x"));
        assertEquals("bin/deploy: descriptor no/such.xml does not exist\n", err());
    }

    @Test
    void aBrokenDescriptorExits2WithWhereAndWhat(@TempDir final Path dir) throws IOException {
        final Path bad = dir.resolve("bad.xml");
        Files.writeString(bad, "<deployment xmlns=\"urn:troupe:deployment:1\">\n  <virtualNodes>\n</deployment>\n");
        assertEquals(2, run(bad.toString(), "--check"));
        assertTrue(err().contains(bad + ":3:"), err());
    }
}
