package org.troupe.tests.deploy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * A real one-node Slurm cluster on this machine (munged, slurmctld, slurmd in the foreground, on free ports, state
 * in a temporary directory), with Slurm's PBS commands (qsub, qstat, qdel). It writes /etc/slurm/slurm.conf, where
 * every Slurm command looks, and puts back what was there on {@link #close()}, which also cancels every job and stops
 * the daemons. Needs root and slurm-wlm, slurm-wlm-torque and munge (.ci/run installs them); the tests that need it
 * are skipped, with one line saying so, otherwise.
 */
public final class SlurmCluster implements AutoCloseable {
    /**
     * The slurm.conf lines of every test cluster: no cgroups (the tests' machines may have none, or a namespace's view
     * of them), processes tracked by their parents, one CPU a task, no mail.
     */
    public static final List<String> SETTINGS = List.of(
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "SchedulerType=sched/backfill",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "ReturnToService=2",
            "MpiDefault=none",
            "MailProg=/bin/true");

    private static final Path CONF = Path.of("/etc/slurm/slurm.conf");
    private static final Path MUNGE_KEY = Path.of("/etc/munge/munge.key");
    private final Path dir;
    private final List<Process> daemons = new ArrayList<>();
    private final byte[] previousConf;

    private SlurmCluster(final Path dir, final byte[] previousConf) {
        this.dir = dir;
        this.previousConf = previousConf;
    }

    static void assumeInstalled() {
        final boolean installed = List.of(
                        "/usr/sbin/slurmctld",
                        "/usr/sbin/slurmd",
                        "/usr/sbin/munged",
                        "/usr/bin/qsub",
                        "/usr/bin/sbatch")
                .stream()
                .allMatch(p -> Files.isExecutable(Path.of(p)));
        assumeTrue(
                installed,
                "Slurm not installed (apt-get install slurm-wlm slurm-wlm-torque munge): batch"
                        + " deployment tests skipped");
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "not root: a test Slurm cluster cannot be" + " started, batch deployment tests skipped");
    }

    static SlurmCluster start(final Path dir) throws IOException, InterruptedException {
        assumeInstalled();
        Files.createDirectories(dir.resolve("state"));
        Files.createDirectories(dir.resolve("spool"));
        final SlurmCluster c = new SlurmCluster(dir, Files.exists(CONF) ? Files.readAllBytes(CONF) : null);
        try {
            c.startMunge();
            final String host = run("hostname", "-s").strip();
            Files.createDirectories(CONF.getParent());
            Files.writeString(
                    CONF,
                    String.join(
                            "\n",
                            "# written by the Troupe tests (SlurmCluster); the previous file is put back after them",
                            "ClusterName=troupe-test",
                            "SlurmctldHost=" + host + "(127.0.0.1)",
                            "SlurmUser=root",
                            "SlurmctldPort=" + Sshd.freePort(),
                            "SlurmdPort=" + Sshd.freePort(),
                            "AuthType=auth/munge",
                            "StateSaveLocation=" + dir.resolve("state"),
                            "SlurmdSpoolDir=" + dir.resolve("spool"),
                            "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                            "SlurmdPidFile=" + dir.resolve("slurmd.pid"),
                            "SlurmctldLogFile=" + dir.resolve("slurmctld.log"),
                            "SlurmdLogFile=" + dir.resolve("slurmd.log"),
                            String.join("\n", SETTINGS),
                            "NodeName=" + host + " NodeAddr=127.0.0.1 CPUs="
                                    + Runtime.getRuntime().availableProcessors() + " State=UNKNOWN",
                            "PartitionName=debug Nodes=" + host + " Default=YES MaxTime=INFINITE State=UP",
                            ""));
            c.daemon("slurmctld", "/usr/sbin/slurmctld", "-D", "-i");
            c.daemon("slurmd", "/usr/sbin/slurmd", "-D");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!run("sinfo", "-h", "-o", "%t").strip().equals("idle")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the test Slurm node did not become idle: " + run("sinfo")
                            + Files.readString(dir.resolve("slurmctld.log")));
                }
                Thread.sleep(200);
            }
            return c;
        } catch (IOException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void startMunge() throws IOException, InterruptedException {
        if (!Files.exists(MUNGE_KEY)) {
            final byte[] key = new byte[1024];
            new SecureRandom().nextBytes(key);
            Files.createDirectories(MUNGE_KEY.getParent());
            Files.write(MUNGE_KEY, key);
            Files.setPosixFilePermissions(MUNGE_KEY, PosixFilePermissions.fromString("r--------"));
            run("chown", "-R", "munge:munge", MUNGE_KEY.getParent().toString());
        }
        Files.createDirectories(Path.of("/run/munge"));
        run("chown", "munge:munge", "/run/munge");
        daemon(
                "munged",
                "setpriv",
                "--reuid=munge",
                "--regid=munge",
                "--init-groups",
                "/usr/sbin/munged",
                "-F",
                "--force");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!Files.exists(Path.of("/run/munge/munge.socket.2"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("munged did not start: " + Files.readString(dir.resolve("munged.log")));
            }
            Thread.sleep(50);
        }
    }

    private void daemon(final String name, final String... command) throws IOException {
        daemons.add(new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start());
    }

    /** Runs a command to its end and returns its output; fails on a non-zero exit. */
    static String run(final String... command) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /**
     * Asserts that the cluster runs no job, giving one just cancelled a bounded grace to finish: a PBS job reads
     * as complete (C) while Slurm still kills its processes.
     */
    static void assertNoJobs() throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!jobs().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Assertions.assertEquals(List.of(), jobs(), "jobs left running");
    }

    /** The jobs the cluster knows and has not finished. */
    static List<String> jobs() throws IOException, InterruptedException {
        return run("squeue", "-h", "-o", "%i %j %T").lines().toList();
    }

    @Override
    public void close() throws IOException {
        try {
            if (!daemons.isEmpty()) {
                new ProcessBuilder("scancel", "--user=root")
                        .redirectErrorStream(true)
                        .start()
                        .waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (int i = daemons.size() - 1; i >= 0; i--) {
                Leftovers.stop(daemons.get(i));
            }
            if (previousConf != null) {
                Files.write(CONF, previousConf);
            } else {
                Files.deleteIfExists(CONF);
            }
        }
    }
}
