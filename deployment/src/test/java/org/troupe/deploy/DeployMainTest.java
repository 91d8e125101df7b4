package org.troupe.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/deploy's command line: what it prints and the exit code it gives, for good and bad input. */
class DeployMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        return DeployMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
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
        assertTrue(out().contains("virtual node jem3d: wants all it is offered, offered 3"), out());
        assertTrue(out().contains("ssh 'frontendA': frontend-a:22 (known hosts: strict)\n"
            + "    -> pbs 'clusterA': qsub nodes=1:ppn=1 walltime=00:30:00"), out());
        assertTrue(out().contains("-> slurm 'clusterB': sbatch --nodes=1 --ntasks=1 --time=00:30:00"), out());
    }

    @Test
    void helpGoesToStandardOutput() {
        assertEquals(0, run("--help"));
        assertTrue(out().startsWith("Usage: bin/deploy DESCRIPTOR --check"), out());
    }

    @Test
    void badUsageSaysWhatIsWrongAndExits64() {
        assertEquals(64, run());
        assertTrue(err().contains("Usage:"), err());
        assertEquals(64, run("../descriptors/local.xml", "--launch"));
        assertTrue(err().contains("say --check or --run MAIN_CLASS after the descriptor"), err());
        assertEquals(64, run("no/such.xml", "--check"));
        assertTrue(err().contains("descriptor no/such.xml does not exist"), err());
        assertEquals(64, run("../descriptors/local.xml", "--timeout", "soon", "--run", "X"));
        assertTrue(err().contains("--timeout takes a number of seconds, not 'soon'"), err());
        assertEquals(64, run("../descriptors/local.xml", "--run", "org.example.NoSuchApp"));
        assertTrue(err().contains("no class org.example.NoSuchApp with a main(String[])"), err());
    }

    @Test
    void aBrokenDescriptorExits2WithWhereAndWhat(@TempDir final Path dir) throws IOException {
        final Path bad = dir.resolve("bad.xml");
        Files.writeString(bad, "<deployment xmlns=\"urn:troupe:deployment:1\">\n  <virtualNodes>\n</deployment>\n");
        assertEquals(2, run(bad.toString(), "--check"));
        assertTrue(err().contains(bad + ":3:"), err());
    }
}
