package org.troupe.mpi.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.troupe.mpi.programs.FailingRank;
import org.troupe.mpi.programs.Hello;
import org.troupe.mpi.programs.Leftovers;

/** The command line of bin/mpjrun, and what it prints and returns. */
class MpjRunTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) throws Exception {
        return MpjRun.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String testClasses() throws Exception {
        return Path.of(Hello.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString();
    }

    @Test
    void shouldPrintTheUsage() throws Exception {
        assertEquals(0, run("-h"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: mpjrun -np N"));
    }

    /** Shared memory is the default between JVMs of a host (troupe.core.transport=auto), not TCP. */
    @Test
    void shouldSayThatJvmRanksShareMemoryByDefault() throws Exception {
        assertEquals(0, run("-h"));
        final String usage = out.toString(StandardCharsets.UTF_8);
        assertTrue(usage.contains("shared memory by default (troupe.core.transport=auto"), usage);
        assertFalse(usage.contains("TCP transport on loopback"), usage);
    }

    @Test
    void shouldTagEachWholeLineWithItsRank() throws Exception {
        assertEquals(
                0,
                run("-np", "3", "-tag-output", "-cp", testClasses(), Hello.class.getName(), "bye"),
                err.toString(StandardCharsets.UTF_8));
        final List<String> lines =
                Arrays.asList(out.toString(StandardCharsets.UTF_8).split("\n"));
        assertEquals(3, lines.size(), lines.toString());
        for (int r = 0; r < 3; r++) {
            assertTrue(lines.contains("[" + r + "] hello from " + r + " of 3 bye"), lines.toString());
        }
    }

    @Test
    void shouldWriteOutputLeftWithoutANewline() throws Exception {
        assertEquals(0, run("-np", "2", "-cp", testClasses(), Leftovers.class.getName(), "print"));
        final String out = this.out.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("done 0\n") && out.contains("done 1\n"), out);
    }

    @Test
    void shouldWaitForTheThreadsARankStarted() throws Exception {
        assertEquals(0, run("-np", "2", "-cp", testClasses(), Leftovers.class.getName(), "thread"));
        final String out = this.out.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("late 0 1\n") && out.contains("late 1 1\n"), out);
    }

    @Test
    void shouldExitNonZeroWhenARankAbortedTheJob() throws Exception {
        assertEquals(
                3,
                run("-np", "2", "-cp", testClasses(), Leftovers.class.getName(), "abort"),
                "mpjrun exits with Abort's error code, as mpirun does");
        assertEquals(
                "mpjrun: rank 0 of 2: called Abort(3)\nmpjrun: 1 of 2 ranks failed\n",
                err.toString(StandardCharsets.UTF_8),
                "the cause once, then the summary; rank 1 caught the abort in its Barrier");
    }

    @Test
    void shouldExitNonZeroWhenARankFails() throws Exception {
        assertEquals(1, run("-np", "2", "-cp", testClasses(), FailingRank.class.getName()));
        final String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("mpjrun: rank 1 of 2: java.lang.IllegalStateException: boom in rank 1"), e);
        assertTrue(e.contains("mpjrun: 1 of 2 ranks failed; rank 0 stopped in an MPI call as the job was aborted"), e);
        assertTrue(!e.contains("mpjrun: rank 0 of 2"), "the rank the abort stopped is not given as a cause: " + e);
    }

    @Test
    void shouldRefuseABadCommandLine() throws Exception {
        assertEquals(2, run("-np", "zero", "Main"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-np takes a number of ranks, not 'zero'"));
        err.reset();
        assertEquals(2, run("-np", "2", "-dev", "gpu", "Main"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-dev gpu is not a device: threads"));
        err.reset();
        assertEquals(2, run("-np", "2"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no main class"));
        err.reset();
        assertEquals(2, run("-np", "2", "-descriptor", "no/such.xml", "Main"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-descriptor no/such.xml: no such file"));
        err.reset();
        System.setProperty("troupe.home", ".."); // the repository, whose descriptors/ this module's directory lacks
        try {
            assertEquals(2, run("-np", "2", "-descriptor", "descriptors/local.xml", "Main"));
        } finally {
            System.clearProperty("troupe.home");
        }
        final String shipped = Path.of("..", "descriptors", "local.xml")
                .toAbsolutePath()
                .normalize()
                .toString();
        assertTrue(
                err.toString(StandardCharsets.UTF_8)
                        .contains("-descriptor descriptors/local.xml: no such file here; Troupe's own is " + shipped),
                err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, run("-n", "2", "Main"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown option -n: the number of ranks is -np N"));
        err.reset();
        // MPJ Express's mpjrun.sh takes JVM options and -wdir: each is said where it goes here.
        assertEquals(2, run("-np", "2", "-Xmx256m", "Main"));
        assertTrue(
                err.toString(StandardCharsets.UTF_8)
                        .contains("-Xmx256m is an option of the JVM, not of mpjrun: give it in JAVA_OPTS"
                                + " (JAVA_OPTS=\"-Xmx256m\" bin/mpjrun ...)"),
                err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, run("-np", "2", "-Dmy.param=1", "Main"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-Dmy.param=1 is an option of the JVM"));
        err.reset();
        assertEquals(2, run("-np", "2", "-wdir", "/tmp", "Main"));
        assertTrue(
                err.toString(StandardCharsets.UTF_8)
                        .contains("-wdir is not an option of mpjrun: the ranks start in mpjrun's working directory"),
                err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, run("-np", "2", "-dev", "threads", "-descriptor", "pom.xml", "Main"));
        assertTrue(err.toString(StandardCharsets.UTF_8)
                .contains("-descriptor runs each rank in a JVM of the"
                        + " descriptor's nodes: it does not go with -dev threads"));
    }

    @Test
    void shouldRefuseABadNumberOfRanksPerJvmSayingTheFixAndStartingNothing() throws Exception {
        final String[][] bad = {
            {"-np", "4", "-dev", "hybrid", "-ppn", "0", "Main"},
            {"-np", "4", "-dev", "hybrid", "-ppn", "two", "Main"},
            {"-np", "4", "-dev", "hybrid", "-ppn", "8", "Main"},
            {"-np", "4", "-ppn", "2", "Main"},
            {"-np", "4", "-dev", "jvm", "-ppn", "2", "Main"},
            {"-np", "4", "-dev", "hybrid", "-ppn"}
        };
        final String[] why = {
            "-ppn 0: a JVM runs at least one rank (-ppn 1 runs one rank per JVM)",
            "-ppn takes a number of ranks per JVM, not 'two'",
            "-ppn 8 is more ranks per JVM than the job has (-np 4): give -ppn 4 or less",
            "-ppn places several ranks in each JVM: give it with -dev hybrid (JVMs of this host) or -descriptor FILE",
            "or -descriptor FILE (the descriptor's JVMs), not -dev jvm",
            "-ppn needs a value"
        };
        for (int i = 0; i < bad.length; i++) {
            err.reset();
            assertEquals(2, run(bad[i]), String.join(" ", bad[i]));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains(why[i]), err.toString(StandardCharsets.UTF_8));
            assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing ran");
        }
    }

    @Test
    void shouldRefuseATransportThatLinksNoJvmsForRanksInJvmsSayingWhatToSet() {
        final String why = MpjRun.unlinkedRanks("local");
        assertTrue(why != null && why.contains("troupe.core.transport=local") && why.contains("-dev threads"), why);
        assertNull(MpjRun.unlinkedRanks("auto"));
        assertNull(MpjRun.unlinkedRanks("tcp"));
        assertNull(MpjRun.unlinkedRanks("shm"));
    }

    @Test
    void shouldPlaceRanksInBlocksOfRanksPerJvm() {
        final MpjRun.Options hybrid =
                MpjRun.Options.parse(new String[] {"-np", "5", "-dev", "hybdev", "-ppn", "2", "M"});
        assertTrue(hybrid.hybrid() && hybrid.jvms());
        assertEquals(2, hybrid.ppn());
        assertEquals(3, hybrid.jvmCount(), "the last JVM runs the one rank left");
        final MpjRun.Options jvm = MpjRun.Options.parse(new String[] {"-np", "5", "-dev", "jvm", "M"});
        assertEquals(1, jvm.ppn());
        assertEquals(5, jvm.jvmCount());
        final MpjRun.Options byCores = MpjRun.Options.parse(new String[] {"-np", "64", "-dev", "hybrid", "M"});
        assertEquals(Runtime.getRuntime().availableProcessors(), byCores.ppn(), "the host's cores by default");
    }
}
