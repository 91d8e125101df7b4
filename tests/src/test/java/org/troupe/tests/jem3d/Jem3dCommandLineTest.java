package org.troupe.tests.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.tests.deploy.DeploymentLeftovers;

/** bin/jem3d as a user runs it: a JVM of its own, its output, its exit status, its files. */
class Jem3dCommandLineTest {
    private static final Pattern DEPLOYMENT = Pattern.compile("deployment (d[0-9a-f]+) of");

    @TempDir
    Path dir;

    record Outcome(int exit, String out, String err) {
        String deploymentId() {
            Matcher m = DEPLOYMENT.matcher(out);
            assertTrue(m.find(), "the first line names the deployment: " + out);
            return m.group(1);
        }
    }

    /** Extra environment for the next {@link #start}. */
    private final Map<String, String> env = new HashMap<>();

    private Process start(final String... args) throws IOException {
        ProcessBuilder pb = Jem3dTesting.launcher(dir, args);
        pb.environment().putAll(env);
        return pb.start();
    }

    private Outcome outcome(final Process p, final String... args) throws IOException, InterruptedException {
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/jem3d " + String.join(" ", args) + " ended");
            return new Outcome(
                    p.exitValue(),
                    Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
                    Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }

    private Outcome jem3d(final String... args) throws IOException, InterruptedException {
        return outcome(start(args), args);
    }

    @Test
    void ctrlCStopsTheRunAfterTheSameStepReportsItAndExitsWith130() throws Exception {
        String[] args = {"--mesh", "13", "--steps", "1000000"};
        Process p = start(args);
        try {
            // wait for the time loop: its progress lines come on standard error
            for (int i = 0; i < 600 && !Files.readString(dir.resolve("err.txt")).contains("step "); i++) {
                Thread.sleep(100);
            }
            // Ctrl-C in a terminal: SIGINT to the whole process group, node JVM scripts included if they were in it
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-INT", "--", "-" + p.pid())
                            .start()
                            .waitFor());
            Outcome o = outcome(p, args);
            assertEquals(130, o.exit(), o.out() + o.err());
            assertTrue(o.err().contains("stopping after the current step"), o.err());
            assertTrue(o.out().matches("(?s).*steps +\\d+ \\(stopped early; 1000000 planned\\).*"), o.out());
            DeploymentLeftovers.assertNothingLeft(o.deploymentId());
        } finally {
            p.destroyForcibly();
        }
    }

    /** A one-line error naming the problem, exit status 2, and no stack trace. */
    /** Exit 2 and one line saying {@code expected}; then, if the deployment kept its logs, where (once). */
    private void assertRefused(final Outcome o, final String expected) {
        assertEquals(2, o.exit(), o.err());
        List<String> lines = o.err()
                .lines()
                .filter(l -> !l.isBlank())
                .filter(l -> !l.matches(".* Deployment \\S+ closed; its logs are kept in /\\S+"))
                .toList();
        assertEquals(1, lines.size(), "one line: " + o.err());
        assertTrue(
                lines.getFirst().startsWith("jem3d: ") && lines.getFirst().contains(expected),
                "'" + expected + "' in: " + lines.getFirst());
        assertFalse(o.err().contains("Exception") || o.err().contains("\tat "), "no stack trace: " + o.err());
    }

    /** A deployment that cannot start (here: an address this host does not have) is refused with exit 2 too. */
    @Test
    void aDeploymentThatCannotStartGetsAOneLineErrorAndExit2() throws Exception {
        env.put("TROUPE_CORE_BINDADDRESS", "192.0.2.1"); // TEST-NET-1: no interface of this host has it
        Outcome o = jem3d("--mesh", "5");
        assertEquals(2, o.exit(), o.out() + o.err());
        assertTrue(o.err().startsWith("jem3d: cannot deploy: Cannot listen on 192.0.2.1:0"), o.err());
        assertFalse(o.err().contains("\tat "), "no stack trace: " + o.err());
    }

    /** A setting the runtime refuses is bad input too: one line, exit 2, no class name nor trace. */
    @Test
    void aBadSettingGetsAOneLineErrorAndExit2() throws Exception {
        env.put("TROUPE_CORE_TRANSPORT", "shmm");
        assertRefused(jem3d("--mesh", "5"), "troupe.core.transport=shmm names no transport");
    }

    @Test
    void badInputGetsAOneLineErrorAndNothingRuns() throws Exception {
        assertRefused(jem3d("--mesh", "1"), "at least 2 points");
        assertRefused(jem3d("--mesh", "4x4"), "not a mesh size");
        assertRefused(jem3d("--mode", "100"), "zero everywhere");
        assertRefused(jem3d("--mode", "xyz"), "is not a mode");
        assertRefused(jem3d("--cfl", "1.5"), "CFL 1.5 is outside (0, 1]");
        assertRefused(jem3d("--adapt", "later"), "divide, wait, shrink or grow");
        assertRefused(
                jem3d("--checkpoint", dir.resolve("none").toString(), "--checkpoint-every", "0"),
                "--checkpoint-every 0 takes none");
        assertRefused(jem3d("--resume", dir.resolve("missing").toString()), "it is not a directory");
        assertRefused(jem3d("--descriptor", dir.resolve("none.xml").toString()), "cannot read the descriptor");
        assertRefused(jem3d("--nodes", "0"), "nodes must be between 1 and 1024");
        assertRefused(jem3d("--frobnicate"), "Unknown option");
        assertRefused(jem3d("--time", "1", "--steps", "3"), "not both");
        Path broken = dir.resolve("broken.xml");
        Files.writeString(broken, "<deployment xmlns=\"urn:troupe:deployment:1\"><virtualNodes>");
        assertRefused(jem3d("--descriptor", broken.toString()), "broken.xml");
    }

    @Test
    void inputThatWouldFailLateOrRunAwayIsRefusedBeforeAnythingStarts() throws Exception {
        assertRefused(jem3d("--steps", "0"), "--steps must be 1 or more");
        assertRefused(jem3d("--steps", "20000000"), "steps must be between 1 and 10000000");
        assertRefused(jem3d("--time", "1e7"), "more than 10000000");
        assertRefused(jem3d("--nodes", "5000"), "nodes must be between 1 and 1024");
        assertRefused(jem3d("--timeout", "0"), "timeout must be between");
        assertRefused(jem3d("--mode", "111:NaN,0,-1"), "must be finite");
        assertRefused(jem3d("--mode", "111:1e-300,0,-1e-300"), "too small");
        assertRefused(jem3d("--mode", "1,1,1,"), "is not a mode");
        assertRefused(jem3d("--min-nodes", "0"), "--min-nodes must be 1 or more");
        assertRefused(
                jem3d(
                        "--json",
                        dir.resolve("same").toString(),
                        "--plot",
                        dir.resolve("same").toString()),
                "name the same path");
        assertRefused(jem3d("--json", dir.resolve("missing/run.json").toString()), "cannot write the report");
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertRefused(jem3d("--plot", file.toString()), "cannot make the plot directory");
        assertRefused(jem3d("--mesh", "3", "--division", "4x1x1"), "does not fit mesh 3x3x3");
        Path other = dir.resolve("other.xml");
        Files.writeString(
                other,
                Files.readString(Path.of("src/test/resources/jem3d/broken-java.xml"))
                        .replace("\"jem3d\"", "\"solver\""));
        assertRefused(jem3d("--descriptor", other.toString()), "no virtual node 'jem3d'");
    }

    @Test
    void noNodeAtAllIsAClearErrorAndLeavesNothing() throws Exception {
        Outcome o = jem3d("--descriptor", "src/test/resources/jem3d/broken-java.xml", "--timeout", "60");
        assertRefused(o, "no node of virtual node 'jem3d' arrived");
        DeploymentLeftovers.assertNothingLeft(o.deploymentId());
    }

    @Test
    void helpListsEveryOption() throws Exception {
        Outcome o = jem3d("--help");
        assertEquals(0, o.exit(), o.err());
        for (String option : List.of(
                "--mesh",
                "--time",
                "--steps",
                "--cfl",
                "--mode",
                "--descriptor",
                "--nodes",
                "--adapt",
                "--min-nodes",
                "--timeout",
                "--json",
                "--plot",
                "--division")) {
            assertTrue(o.out().contains(option), option + " in " + o.out());
        }
    }

    @Test
    void aRunWritesItsReportJsonAndPlots() throws Exception {
        Path json = dir.resolve("run.json");
        Path plots = dir.resolve("plots");
        Outcome o = jem3d(
                "--mesh", "9", "--steps", "40", "--nodes", "2", "--json", json.toString(), "--plot", plots.toString());
        assertEquals(0, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("division      1x1x2 subdomains on 2 nodes"), o.out());
        assertTrue(o.out().contains("energy drift"), o.out());
        String report = Files.readString(json).strip();
        List<String> keys = new ArrayList<>();
        Matcher key = Pattern.compile("\"([a-zA-Z_]+)\":").matcher(report);
        while (key.find()) {
            keys.add(key.group(1));
        }
        assertEquals(
                List.of(
                        "mesh",
                        "tetrahedra",
                        "division",
                        "nodes",
                        "steps",
                        "dt",
                        "time",
                        "seconds",
                        "tet_steps_per_s",
                        "energy_rel_drift",
                        "error_E",
                        "error_H",
                        "heap_bytes_per_tet",
                        "checkpoint_overhead",
                        "events"),
                keys,
                report);
        assertTrue(
                report.startsWith(
                        "{\"mesh\":[9,9,9],\"tetrahedra\":3072,\"division\":[1,1,2],\"nodes\":2," + "\"steps\":40,"),
                report);
        for (String png : List.of("energy.png", "error.png", "slice-E.png")) {
            assertNotNull(ImageIO.read(plots.resolve(png).toFile()), png + " is a picture");
        }
        DeploymentLeftovers.assertNothingLeft(o.deploymentId());
    }
}
