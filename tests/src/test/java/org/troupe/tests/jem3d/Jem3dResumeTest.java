package org.troupe.tests.jem3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.troupe.apps.jem3d.DiskCheckpoint;
import org.troupe.apps.jem3d.Jem3dReport;
import org.troupe.apps.jem3d.Jem3dRun;
import org.troupe.apps.jem3d.Mesh;
import org.troupe.apps.jem3d.RunEvent;
import org.troupe.deploy.Deployment;
import org.troupe.tests.ParentRuntime;
import org.troupe.tests.deploy.DeploymentLeftovers;

/**
 * A run whose launcher was killed (SIGKILL: no clean-up at all) goes on from its last checkpoint on disk, on new
 * node JVMs, to the fields of the uninterrupted sequential run; a damaged checkpoint is refused.
 */
class Jem3dResumeTest {
    private static final Mesh MESH = new Mesh(9, 8, 7);
    /** Long enough that the kill comes mid-run: some seconds at a few hundred steps a second. */
    private static final int STEPS = 6_000;

    private static final Pattern DEPLOYMENT = Pattern.compile("deployment (d[0-9a-f]+) of");

    @RegisterExtension
    static final ParentRuntime parent = new ParentRuntime();

    @TempDir
    Path dir;

    @Test
    void aRunWhoseLauncherWasKilledGoesOnFromItsDiskCheckpointToTheSameFields() throws Exception {
        Path checkpoints = dir.resolve("checkpoints");
        Process p = Jem3dTesting.launcher(
                        dir,
                        "--mesh",
                        "9x8x7",
                        "--steps",
                        String.valueOf(STEPS),
                        "--checkpoint",
                        checkpoints.toString(),
                        "--checkpoint-every",
                        "100")
                .start();
        String killed;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (files(checkpoints).isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(p.isAlive(), "the run was still going when its first checkpoint was on disk: " + out());
            p.destroyForcibly(); // SIGKILL
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            Matcher m = DEPLOYMENT.matcher(out());
            assertTrue(m.find(), out());
            killed = m.group(1);
        } finally {
            p.destroyForcibly();
        }
        // its node JVMs end by themselves, their launcher gone
        DeploymentLeftovers.assertNothingLeft(killed);

        DiskCheckpoint checkpoint = DiskCheckpoint.latest(checkpoints);
        assertNotNull(checkpoint, "a checkpoint is on disk");
        assertTrue(checkpoint.step() > 0 && checkpoint.step() < STEPS, checkpoint.toString());
        String id;
        try (Deployment d = Deployment.load(Jem3dTesting.LOCAL, Jem3dTesting.localVariables(3))
                .start()) {
            id = d.id();
            // other nodes than the killed run's, and more of them
            Jem3dReport report = new Jem3dRun(
                            Jem3dTesting.options(MESH, STEPS)
                                    .withNodes(
                                            3, Jem3dTesting.options(MESH, STEPS).adapt(), 0),
                            new Jem3dRun.Listener() {})
                    .resumeFrom(checkpoint)
                    .keepFields()
                    .run(d);
            Jem3dTesting.assertSameRun(Jem3dTesting.sequential(MESH, STEPS), report);
            assertEquals(3, report.nodes());
            assertEquals(RunEvent.Kind.RESUMED, report.events().getFirst().kind());
            assertEquals(checkpoint.step(), report.events().getFirst().step());
        }
        DeploymentLeftovers.assertNothingLeft(id);

        // bin/jem3d --resume, from the same checkpoint, ends the run too, and removes the checkpoint
        Path last = files(checkpoints).getFirst();
        byte[] bytes = Files.readAllBytes(last);
        Process resumed = Jem3dTesting.launcher(
                        dir,
                        "--resume",
                        checkpoints.toString(),
                        "--json",
                        dir.resolve("r.json").toString())
                .start();
        try {
            assertTrue(resumed.waitFor(120, TimeUnit.SECONDS), "bin/jem3d --resume ended: " + out());
            assertEquals(0, resumed.exitValue(), out() + err());
        } finally {
            resumed.destroyForcibly();
        }
        String json = Files.readString(dir.resolve("r.json"));
        assertTrue(json.contains("\"steps\":" + STEPS + ","), json);
        assertTrue(json.contains("\"event\":\"resumed\""), json);
        assertTrue(out().contains("resuming from " + checkpoints), out());
        assertTrue(out().contains("the run is complete: its checkpoint in " + checkpoints + " is removed"), out());
        assertEquals(List.of(), files(checkpoints));

        // a checkpoint damaged on disk is refused before anything starts
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(last, bytes);
        Process refused =
                Jem3dTesting.launcher(dir, "--resume", checkpoints.toString()).start();
        try {
            assertTrue(refused.waitFor(60, TimeUnit.SECONDS));
            assertEquals(2, refused.exitValue(), out() + err());
        } finally {
            refused.destroyForcibly();
        }
        assertTrue(err().contains("jem3d: the checkpoint " + last + " is damaged"), err());
        assertFalse(err().contains("\tat "), "no stack trace: " + err());
    }

    private static List<Path> files(final Path checkpoints) throws IOException {
        if (!Files.isDirectory(checkpoints)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(checkpoints)) {
            return files.filter(f -> f.getFileName().toString().matches("checkpoint-[0-9]+\\.jem3d"))
                    .toList();
        }
    }

    private String out() throws IOException {
        return Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
    }

    private String err() throws IOException {
        return Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
    }
}
